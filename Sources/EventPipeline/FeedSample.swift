import Geotriggers
import Spatial
import Support

/// What a summary needs of a fix, in 56 bytes instead of a ``Geotriggers/Sample``'s 152 (the
/// fields that only filters and message templates read are left out: a summary runs only
/// without filters, and counts events without their messages; the position is projected by
/// the worker that takes it), so the read-ahead holds more fixes in the same memory.
package struct FeedSample {
    package let index: Int
    package let time: Timestamp
    package let longitude: Double
    package let latitude: Double
    package let accuracy: Double
    package let segment: Int32

    package init(index: Int, time: Timestamp, longitude: Double, latitude: Double, accuracy: Double, segment: Int32) {
        self.index = index
        self.time = time
        self.longitude = longitude
        self.latitude = latitude
        self.accuracy = accuracy
        self.segment = segment
    }

    /// The sample, its position projected into `frame`.
    @inline(__always)
    package func sample(in frame: MetricFrame) -> Sample {
        Sample(
            index: index, time: time, position: frame.forward(XY(longitude: longitude, latitude: latitude)),
            longitude: longitude, latitude: latitude, accuracy: accuracy, segment: Int(segment))
    }
}
