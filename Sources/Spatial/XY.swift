/// A planar coordinate. In a metric frame, `x` is easting and `y` northing, in metres; in
/// geographic input, `x` is longitude and `y` latitude, in degrees — the one place where
/// fencesim maps longitude to x (GeoJSON order, RFC 7946 §3.1.1).
public struct XY: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    /// A geographic position as XY (x = longitude, y = latitude).
    @inlinable public init(longitude: Double, latitude: Double) {
        self.x = longitude
        self.y = latitude
    }

    @inlinable public var longitude: Double { x }
    @inlinable public var latitude: Double { y }

    /// Euclidean distance to `other`, in the units of the frame.
    @inlinable public func distance(to other: XY) -> Double {
        let dx = x - other.x
        let dy = y - other.y
        return (dx * dx + dy * dy).squareRoot()
    }

    public var description: String { "(\(x), \(y))" }
}

/// An axis-aligned rectangle: in geographic use (west, south, east, north) in degrees, in a
/// metric frame (minX, minY, maxX, maxY) in metres.
public struct BoundingBox: Hashable, Sendable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The smallest box holding every point, or `nil` for none. Inlinable, so that a caller's
    /// sequence (a lazy map over coordinates) is specialized instead of walked through generic
    /// witnesses, which looked up type metadata for every point (perf of a ground truth's setup).
    @inlinable
    public init?<S: Sequence>(points: S) where S.Element == XY {
        var box: BoundingBox?
        for p in points {
            if box == nil { box = BoundingBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y) } else { box?.include(p) }
        }
        guard let box else { return nil }
        self = box
    }

    public var west: Double { minX }
    public var south: Double { minY }
    public var east: Double { maxX }
    public var north: Double { maxY }
    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    public var center: XY { XY((minX + maxX) / 2, (minY + maxY) / 2) }

    @inlinable
    public mutating func include(_ p: XY) {
        minX = min(minX, p.x)
        minY = min(minY, p.y)
        maxX = max(maxX, p.x)
        maxY = max(maxY, p.y)
    }

    public mutating func include(_ other: BoundingBox) {
        minX = min(minX, other.minX)
        minY = min(minY, other.minY)
        maxX = max(maxX, other.maxX)
        maxY = max(maxY, other.maxY)
    }

    /// The box grown by `margin` on every side.
    public func expanded(by margin: Double) -> BoundingBox {
        BoundingBox(minX: minX - margin, minY: minY - margin, maxX: maxX + margin, maxY: maxY + margin)
    }

    public func contains(_ p: XY) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }

    public func intersects(_ other: BoundingBox) -> Bool {
        other.minX <= maxX && other.maxX >= minX && other.minY <= maxY && other.maxY >= minY
    }
}
