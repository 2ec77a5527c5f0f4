import Testing

@testable import Support

@Suite struct TimestampTests {
    @Test(arguments: [
        ("2026-01-01T00:00:00.000Z", Int64(1_767_225_600), Int32(0)),
        ("2026-01-01T00:00:00Z", 1_767_225_600, 0),
        ("2026-01-01 01:00:00+01:00", 1_767_225_600, 0),
        ("2026-01-01T01:30:00+0130", 1_767_225_600, 0),
        ("2008-12-11 04:42:14+00", 1_228_970_534, 0),
        ("2019-01-25 20:00:16.178999901", 1_548_446_416, 178_999_901),
        ("2013/04/30T14:23:57", 1_367_331_837, 0),
        ("1970-01-01T00:00:00.0000000005Z", 0, 1),
        ("1969-12-31T23:59:59.5Z", -1, 500_000_000),
        ("1234-12-12T08:00:00Z", -23_196_038_400, 0),
        ("4096-12-12T08:00:00Z", 67_120_041_600, 0),  // values from Python calendar.timegm (proleptic Gregorian)
    ])
    func parses(text: String, seconds: Int64, nanos: Int32) throws {
        let t = try Timestamp.parseISO8601(text).get()
        #expect(t.seconds == seconds)
        #expect(t.nanoseconds == nanos)
    }

    @Test(arguments: [
        "2026-02-30T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01", "yesterday", "2026-01-01T00:00:00Q", "2026-01-01T00:00:00.Z", "",
    ])
    func refuses(text: String) {
        if case .success(let t) = Timestamp.parseISO8601(text) {
            Issue.record("\(text) parsed as \(t)")
        }
    }

    @Test func refusesMissingZoneWhenAsked() {
        if case .success = Timestamp.parseISO8601("2026-01-01T00:00:00", assumeUTC: false) {
            Issue.record("a time without a zone should be refused")
        }
    }

    @Test func formatsWithMilliseconds() throws {
        let t = try Timestamp.parseISO8601("2026-03-02T08:00:00.9996Z").get()
        #expect(t.description == "2026-03-02T08:00:01.000Z")
        #expect(t.iso8601(fractionDigits: 0) == "2026-03-02T08:00:01Z")
        #expect(try Timestamp.parseISO8601("1234-12-12T08:00:00Z").get().description == "1234-12-12T08:00:00.000Z")
    }

    @Test func arithmeticIsExact() throws {
        let a = try Timestamp.parseISO8601("2026-01-01T00:00:00Z").get()
        let b = a.adding(seconds: 1.25)
        #expect(b.seconds(since: a) == 1.25)
        #expect(b.nanoseconds(since: a) == 1_250_000_000)
        #expect(a < b)
        #expect(a.adding(seconds: -0.5).description == "2025-12-31T23:59:59.500Z")
    }

    @Test func civilFieldsRoundTrip() {
        // Every 97th day over 5,000 years round-trips through the calendar functions.
        var day = -1_000_000
        while day < 1_000_000 {
            let (y, m, d) = Timestamp.civilFromDays(day)
            #expect(Timestamp.daysFromCivil(year: y, month: m, day: d) == day)
            day += 97
        }
        let t = Timestamp(year: 2026, month: 11, day: 22, hour: 5, minute: 54)
        #expect(t?.civil.weekday == 0)  // a Sunday
    }
}

/// The range of times fencesim reads, which bounds the durations settings may give (issue 21).
@Suite struct TimestampRangeTests {
    @Test func theRangeIsTheParsersRange() throws {
        guard case .success(let first) = Timestamp.parseISO8601("-9999-01-01T00:00:00Z"),
            case .success(let last) = Timestamp.parseISO8601("9999-12-31T23:59:59Z")
        else {
            Issue.record("the ends of the range do not parse")
            return
        }
        #expect(first == Timestamp.earliest)
        #expect(last == Timestamp.latest)
        #expect(Timestamp.spanSeconds == 631_107_417_599)
    }
}
