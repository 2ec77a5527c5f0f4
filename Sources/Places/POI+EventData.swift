import Support

extension POI {
    /// The POI as the SDKs put it in events and shared state: `regionid`, `regionname`,
    /// `latitude`, `longitude`, `radius`, `weight`, `libraryid`, `useriswithin`,
    /// `regionmetadata`, in that fixed order.
    ///
    /// Keys are those of `PI/PlacesConstants.swift EventDataKey.Places` and
    /// `PA/PlacesConstants.java POIKeys` (research §1.1). The SDKs build these maps from
    /// dictionaries, so their key order is unspecified; fencesim fixes it, and sorts metadata by
    /// key. The radius is an integer when it is whole (the SDKs' `radius` is an `Int`).
    public var eventData: JSONValue {
        .orderedObject([
            ("regionid", .string(id)),
            ("regionname", .string(name)),
            ("latitude", .double(latitude)),
            ("longitude", .double(longitude)),
            ("radius", POI.number(radiusMeters)),
            ("weight", .int(Int64(rank))),
            ("libraryid", .string(library)),
            ("useriswithin", .bool(userIsWithin)),
            ("regionmetadata", .orderedObject(sortedMetadata.map { ($0.key, .string($0.value)) })),
        ])
    }

    /// The XDM `poiDetail` of the Edge "Location Tracking Event": `poiID`, `name` and
    /// `metadata.list` of `{key, value}` pairs (`PI/Places+EdgeEvents.swift createXDMPOIDetail`;
    /// research §1.7), metadata sorted by key.
    public var xdmPOIDetail: JSONValue {
        .orderedObject([
            ("poiID", .string(id)),
            ("name", .string(name)),
            (
                "metadata",
                .orderedObject([
                    ("list", .list(sortedMetadata.map { .orderedObject([("key", .string($0.key)), ("value", .string($0.value))]) }))
                ])
            ),
        ])
    }

    /// Metadata pairs sorted by key, the only order fencesim ever writes them in.
    public var sortedMetadata: [(key: String, value: String)] {
        metadata.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }

    /// A JSON integer when `value` is whole and fits, else a JSON double.
    static func number(_ value: Double) -> JSONValue {
        if value == value.rounded(), abs(value) < 9e15 { return .int(Int64(value)) }
        return .double(value)
    }
}
