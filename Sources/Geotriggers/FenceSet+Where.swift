import Fences
import Support

extension FenceSet {
    /// The fences `clause` selects (a where-clause over ``FilterExpression/Subject/fences``), in
    /// file order, with the set's warnings, and one more when it selects none. Each fence keeps
    /// its ``Fences/Fence/index`` in the file.
    public func selecting(_ clause: FilterExpression) -> FenceSet {
        var selected = self
        // Read in place: a copy of a fence retains a dozen references.
        selected.fences = fences.withUnsafeBufferPointer { all in
            all.indices.filter { clause.selects(all[$0]) }.map { all[$0] }
        }
        if selected.fences.isEmpty, !fences.isEmpty {
            selected.warnings.append(
                Diagnostic(
                    .warning, "the where-clause \"\(clause.text)\" selects none of the \(fences.count) fences",
                    at: SourceLocation(file: file), kind: "where-selects-none"))
        }
        return selected
    }
}

extension FilterExpression {
    /// Whether this where-clause selects `fence`.
    public func selects(_ fence: Fence) -> Bool {
        selects { FilterExpression.value(of: $0, in: fence) }
    }

    /// The value a where-clause's name stands for in `fence`: its property of that name (the
    /// last, as ``Fences/Fence/property(_:)`` reads it), else a member of an object property
    /// (`address.city`), else the fence's `id`, `zone` or `name` as fencesim read them (an id
    /// given by `--id-property`, a zone from `zone`). Objects and arrays are present but equal
    /// to nothing.
    static func value(of name: String, in fence: Fence) -> Scalar? {
        if let node = fence.property(name) { return scalar(node) }
        if name.contains(".") {
            let path = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if var node = fence.property(path[0]) {
                for key in path.dropFirst() {
                    guard let member = node.member(key) else { return nil }
                    node = member
                }
                return scalar(node)
            }
        }
        switch name {
        case "id": return .string(fence.id)
        case "zone": return fence.zone.map(Scalar.string)
        case "name": return fence.name.map(Scalar.string)
        default: return nil
        }
    }

    static func scalar(_ node: JSONNode) -> Scalar {
        switch node.value {
        case .null: .null
        case .bool(let b): .boolean(b)
        case .int(let i): .number(Double(i))
        case .double(let d): .number(d)
        case .string(let s): .string(s)
        case .array, .object: .composite
        }
    }
}
