import Support

extension JSONValue {
    /// An object's members with duplicate keys resolved as the SDKs' dictionaries resolve them:
    /// the last value wins; the key keeps the position of its first occurrence. Empty for
    /// anything but an object.
    var uniqueMembers: [(key: String, value: JSONValue)] {
        guard case .object(let members) = self else { return [] }
        var out: [(key: String, value: JSONValue)] = []
        var position: [String: Int] = [:]
        out.reserveCapacity(members.count)
        for member in members {
            if let k = position[member.key] {
                out[k].value = member.node.value
            } else {
                position[member.key] = out.count
                out.append((member.key, member.node.value))
            }
        }
        return out
    }

    /// The value of member `key` of an object (the last one when duplicated).
    func member(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.node.value
    }

    /// Whether the value is a JSON object.
    var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// The string, when the value is one.
    var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// Whether the value is JSON `null`.
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension JSONNode {
    /// The value when it is an integer.
    var intValue: Int64? {
        if case .int(let i) = value { return i }
        return nil
    }
}
