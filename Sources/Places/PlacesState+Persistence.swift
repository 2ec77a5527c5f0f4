import Files
import Support

extension PlacesState {
    /// The `format` member of a persisted state.
    public static let persistenceFormat = "fencesim-places-state"
    /// The current persistence version; ``decode(_:configuration:)`` refuses any other.
    public static let persistenceVersion: Int64 = 1

    /// The whole state as JSON (for `--state FILE`), keys in a fixed order, times as ISO-8601
    /// UTC with nanoseconds, doubles in shortest round-trip form, so that decoding and
    /// re-encoding gives the same bytes. The configuration is not included.
    public var persistedJSON: JSONValue {
        .orderedObject([
            ("format", .string(PlacesState.persistenceFormat)),
            ("version", .int(PlacesState.persistenceVersion)),
            ("nearby", .list(nearby.map(PlacesState.encode))),
            (
                "entered",
                .list(
                    entered.map { m in
                        .orderedObject([
                            ("poi", PlacesState.encode(m.poi)),
                            ("enteredAt", PlacesState.encode(m.enteredAt)),
                            ("entrySequence", .int(Int64(bitPattern: m.entrySequence))),
                            ("joinedSequence", .int(Int64(bitPattern: m.joinedSequence))),
                        ])
                    })
            ),
            ("current", current.map(PlacesState.encode) ?? .null),
            ("lastEntered", lastEntered.map(PlacesState.encode) ?? .null),
            ("lastExited", lastExited.map(PlacesState.encode) ?? .null),
            ("validUntil", validUntil.map(PlacesState.encode) ?? .null),
            (
                "lastKnownLocation",
                lastKnownLocation.map { .orderedObject([("latitude", .double($0.latitude)), ("longitude", .double($0.longitude))]) }
                    ?? .null
            ),
            ("lastLookup", lastLookup.map(PlacesState.encode) ?? .null),
            ("nextSequence", .int(Int64(bitPattern: nextSequence))),
        ])
    }

    /// The persisted JSON text, one line with a final newline, for `FileIO.writeAtomically`.
    public func encoded() -> String {
        JSONWriter.string(persistedJSON) + "\n"
    }

    /// Reads a state written by ``encoded()``.
    ///
    /// - Parameters:
    ///   - source: the file's bytes and name.
    ///   - configuration: the settings to run the state with (not persisted).
    /// - Throws: `FencesimError(.badData)` located at `file:line:col` for text that is not JSON,
    ///   another format or version, a missing, unknown, duplicate or mistyped key, or an
    ///   inconsistent entered set. A corrupt state is never replaced silently.
    public static func decode(_ source: SourceText, configuration: PlacesConfiguration) throws(FencesimError) -> PlacesState {
        let root = try JSONParser.parse(source)
        let reader = PersistedStateReader(source: source)
        let members = try reader.object(
            root, "the Places state",
            keys: [
                "format", "version", "nearby", "entered", "current", "lastEntered", "lastExited", "validUntil",
                "lastKnownLocation", "lastLookup", "nextSequence",
            ], allRequired: false)
        let format = try reader.require(members, "format", in: root)
        guard format.string == persistenceFormat else {
            throw reader.error("not a fencesim Places state (\"format\" must be \"\(persistenceFormat)\")", at: format)
        }
        let version = try reader.require(members, "version", in: root)
        guard case .int(let v) = version.value, v == persistenceVersion else {
            throw reader.error(
                "unsupported Places state version \(JSONWriter.string(version.value)); this fencesim reads version \(persistenceVersion)",
                at: version)
        }
        try reader.requireAll(members, in: root)
        var state = PlacesState(configuration: configuration)
        state.nearby = try reader.array(members["nearby"], "nearby").map { n throws(FencesimError) in try reader.poi(n) }
        var seen: Set<String> = []
        for node in try reader.array(members["entered"], "entered") {
            let m = try reader.object(node, "an entered POI", keys: ["poi", "enteredAt", "entrySequence", "joinedSequence"])
            let poi = try reader.poi(m["poi"])
            guard seen.insert(poi.id).inserted else {
                throw reader.error("POI \"\(poi.id)\" is entered twice", at: node)
            }
            state.entered.append(
                PlacesMembership(
                    poi: poi, enteredAt: try reader.timestamp(m["enteredAt"], "enteredAt"),
                    entrySequence: try reader.sequence(m["entrySequence"], "entrySequence"),
                    joinedSequence: try reader.sequence(m["joinedSequence"], "joinedSequence")))
        }
        state.entered.sort { $0.id < $1.id }
        state.current = try reader.optional(members["current"]) { n throws(FencesimError) in try reader.poi(n) }
        state.lastEntered = try reader.optional(members["lastEntered"]) { n throws(FencesimError) in try reader.poi(n) }
        state.lastExited = try reader.optional(members["lastExited"]) { n throws(FencesimError) in try reader.poi(n) }
        state.validUntil = try reader.optional(members["validUntil"]) { n throws(FencesimError) in try reader.timestamp(n, "validUntil") }
        state.lastKnownLocation = try reader.optional(members["lastKnownLocation"]) { n throws(FencesimError) in
            let l = try reader.object(n, "lastKnownLocation", keys: ["latitude", "longitude"])
            return PlacesLocation(
                latitude: try reader.double(l["latitude"], "latitude"), longitude: try reader.double(l["longitude"], "longitude"))
        }
        state.lastLookup = try reader.optional(members["lastLookup"]) { n throws(FencesimError) in try reader.timestamp(n, "lastLookup") }
        let next = try reader.sequence(members["nextSequence"], "nextSequence")
        for m in state.entered where m.entrySequence >= next || m.joinedSequence >= next {
            throw reader.error("entered POI \"\(m.id)\" has a sequence at or beyond nextSequence \(next)", at: members["nextSequence"])
        }
        state.nextSequence = next
        state.recomputeNearbyOrder()
        return state
    }

    // MARK: - Encoding helpers

    static func encode(_ poi: POI) -> JSONValue {
        .orderedObject([
            ("id", .string(poi.id)),
            ("name", .string(poi.name)),
            ("latitude", .double(poi.latitude)),
            ("longitude", .double(poi.longitude)),
            ("radiusMeters", .double(poi.radiusMeters)),
            ("library", .string(poi.library)),
            ("rank", .int(Int64(poi.rank))),
            ("metadata", .orderedObject(poi.sortedMetadata.map { ($0.key, .string($0.value)) })),
            ("userIsWithin", .bool(poi.userIsWithin)),
        ])
    }

    static func encode(_ time: Timestamp) -> JSONValue {
        .string(time.iso8601(fractionDigits: 9))
    }
}
