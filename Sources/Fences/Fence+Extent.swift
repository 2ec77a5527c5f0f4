import Spatial

extension Fence {
    /// The fence's extent in WGS84 degrees, circles and beacons including their radius.
    public var boundingBox: BoundingBox? {
        let radius: Double
        switch kind {
        case .circle(let r): radius = r
        case .beacon(let range, _): radius = range
        case .area, .line: return shape.boundingBox
        }
        guard case .point(let c) = shape else { return shape.boundingBox }
        var box = BoundingBox(minX: c.x, minY: c.y, maxX: c.x, maxY: c.y)
        for azimuth in [0.0, 90, 180, 270] {
            let p = Geodesic.wgs84.direct(latitude: c.latitude, longitude: c.longitude, azimuth: azimuth, distanceMeters: radius)
            box.include(XY(longitude: p.longitude, latitude: p.latitude))
        }
        return box
    }
}
