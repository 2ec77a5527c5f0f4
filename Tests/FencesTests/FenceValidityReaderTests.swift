import Support
import Testing

@testable import Fences

private func read(_ text: String) throws(FencesimError) -> FenceSet {
    try FenceReader.parse(SourceText(file: "fences.geojson", bytes: Array(text.utf8)))
}

private func circle(_ properties: String) -> String {
    "{\"type\": \"FeatureCollection\", \"features\": [\n{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [8.5, 47.4]},\n"
        + "\"properties\": {\"id\": \"a\", \"radius\": 30, \(properties)}}\n]}"
}

/// `validFrom`, `validUntil` and `schedule` in a fence's properties.
@Suite struct FenceValidityReaderTests {
    @Test func readsValidityAndSchedule() throws {
        let set = try read(
            circle(
                #""validFrom": "2026-03-01T08:00:00Z", "validUntil": "2026-03-01T10:00:00+01:00", "schedule": [{"days": ["mon", "Friday"], "from": "22:00", "to": "02:00", "timezone": "Europe/Zurich"}]"#
            ))
        let validity = try #require(set.fences[0].validity)
        #expect(validity.from?.description == "2026-03-01T08:00:00.000Z")
        #expect(validity.until?.description == "2026-03-01T09:00:00.000Z")
        #expect(
            validity.schedule == [ZoneConditions.TimeWindow(days: [1, 5], fromMinute: 22 * 60, toMinute: 120, timeZone: "Europe/Zurich")])
        // A single window may be given without a list; a fence without any has no validity.
        #expect(try read(circle(#""schedule": {"from": "08:00", "to": "09:00"}"#)).fences[0].validity?.schedule.count == 1)
        #expect(try read(circle(#""other": 1"#)).fences[0].validity == nil)
    }

    @Test(arguments: [
        (#""validFrom": "tomorrow""#, "\"validFrom\" is not an ISO-8601 time"),
        (#""validUntil": 5"#, "\"validUntil\" must be an ISO-8601 time"),
        (#""validFrom": "2026-03-01T10:00:00Z", "validUntil": "2026-03-01T09:00:00Z""#, "must be later than"),
        (#""schedule": {"from": "25:00", "to": "02:00"}"#, "must be a time of day"),
        (#""schedule": {"from": "08:00", "to": "09:00", "timezone": "Mars/Olympus"}"#, "unknown time zone"),
        (#""schedule": {"days": ["someday"], "from": "08:00", "to": "09:00"}"#, "unknown day"),
        (#""schedule": {"from": "08:00", "until": "09:00"}"#, "unknown key \"until\""),
    ])
    func refusesBadValidityWithALocation(properties: String, message: String) {
        do {
            _ = try read(circle(properties))
            Issue.record("expected an error containing \"\(message)\"")
        } catch {
            #expect(error.code.exitStatus == 65)
            #expect(error.description.hasPrefix("fences.geojson:3:"), "\(error)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }
}
