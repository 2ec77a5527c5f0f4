import Support

/// Merges consequence data into event data for `add` (no overwrite) and `mod` (overwrite)
/// (research §2.5 "Dispatch"; `EventDataMerger.swift`).
///
/// - A key only in the new data is added.
/// - A key in both: two objects merge recursively; two arrays are concatenated (old then new);
///   otherwise the new value wins only when overwriting.
/// - A key `name[*]` merges its object into every object element of the array `name`.
/// - `null` values are then removed at every object level, so `mod` with `"key": null` deletes
///   the key, and `add` never adds nulls.
///
/// Keys keep the order of the old data, new keys follow in the order of the new data (the SDKs
/// use hash maps; fencesim keeps a deterministic order).
enum EventDataMerger {
    static func merging(to old: JSONValue, from new: JSONValue, overwrite: Bool) -> JSONValue {
        let combined = pureMerging(to: old.uniqueMembers, from: new.uniqueMembers, overwrite: overwrite)
        let expanded = handleArrayWildcards(combined, overwrite: overwrite)
        return .orderedObject(expanded.filter { !$0.value.isNull })
    }

    private static func pureMerging(
        to old: [(key: String, value: JSONValue)], from new: [(key: String, value: JSONValue)],
        overwrite: Bool
    ) -> [(key: String, value: JSONValue)] {
        var result = old
        var position: [String: Int] = [:]
        for (k, member) in result.enumerated() { position[member.key] = k }
        for (key, newValue) in new {
            guard let k = position[key] else {
                position[key] = result.count
                result.append((key, newValue))
                continue
            }
            let oldValue = result[k].value
            switch (oldValue, newValue) {
            case (.object, .object):
                result[k].value = merging(to: oldValue, from: newValue, overwrite: overwrite)
            case (.array(let a), .array(let b)):
                result[k].value = .array(a + b)
            default:
                if overwrite { result[k].value = newValue }
            }
        }
        return result
    }

    private static func handleArrayWildcards(_ members: [(key: String, value: JSONValue)], overwrite: Bool) -> [(
        key: String, value: JSONValue
    )] {
        var result = members
        for (key, value) in members {
            guard let marker = key.firstRange(of: "[*]") else {
                // Clean wildcards and nulls inside nested objects.
                if value.isObject, let k = result.firstIndex(where: { $0.key == key }) {
                    result[k].value = merging(to: value, from: .object([]), overwrite: false)
                }
                continue
            }
            result.removeAll { $0.key == key }
            let target = String(key[..<marker.lowerBound])
            guard let k = result.firstIndex(where: { $0.key == target }), case .array(let elements) = result[k].value,
                value.isObject
            else { continue }
            result[k].value = .array(
                elements.map { element in
                    guard element.value.isObject else { return element }
                    return JSONNode(merging(to: element.value, from: value, overwrite: overwrite))
                })
        }
        return result
    }
}
