/// A value kept in one box that its copies share until one of them changes it (copy on write),
/// as `Array` and `String` keep their elements.
///
/// For the large records a build copies many times (each animal, each Wikipedia entry and
/// summary: in loops over the catalogue, sorts, parallel maps, dictionaries): a copy of the
/// record is one reference count, not one per field. Such a type keeps its fields in a
/// `SharedValue<Fields>` and reads and changes them through `@dynamicMemberLookup`, in place
/// (`_modify`): `animal.name` as before. Equal and hashed as the value it holds.
///
/// A key path to such a field (`animals.map(\.group)`) is not folded away as the member access
/// is: it goes through the dynamic member subscript, and its getter copies the whole record. In
/// a loop over the catalogue write a closure instead (`animals.map { $0.group }`).
public struct SharedValue<Value> {
    /// Changed only through a `SharedValue` that holds the only reference to it.
    @usableFromInline final class Box: @unchecked Sendable {
        @usableFromInline var value: Value
        @inlinable init(_ value: Value) { self.value = value }
    }

    @usableFromInline var box: Box

    @inlinable public init(_ value: Value) {
        box = Box(value)
    }

    /// The value; changing it (or a part of it) first gives this copy a box of its own when
    /// another copy shares it.
    @inlinable public var value: Value {
        get { box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }
}

extension SharedValue: Sendable where Value: Sendable {}

extension SharedValue: Equatable where Value: Equatable {
    /// Two copies of one value are equal without comparing its fields.
    @inlinable public static func == (a: Self, b: Self) -> Bool {
        a.box === b.box || a.box.value == b.box.value
    }
}

extension SharedValue: Hashable where Value: Hashable {
    @inlinable public func hash(into hasher: inout Hasher) {
        box.value.hash(into: &hasher)
    }
}
