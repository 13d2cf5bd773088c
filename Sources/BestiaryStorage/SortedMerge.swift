extension Array {
    /// `a` and `b`, each already in the order `areInIncreasingOrder` gives, as one list in that
    /// order: one pass, each element compared once or twice, where sorting the two together
    /// compares each about log₂(n) times. On equal elements, `a`'s come first (as a stable sort of
    /// `a` followed by `b` would keep them).
    public static func merging(_ a: [Element], _ b: [Element], by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
        var merged: [Element] = []
        merged.reserveCapacity(a.count + b.count)
        var i = a.startIndex, j = b.startIndex
        while i < a.endIndex, j < b.endIndex {
            if areInIncreasingOrder(b[j], a[i]) {
                merged.append(b[j])
                j += 1
            } else {
                merged.append(a[i])
                i += 1
            }
        }
        merged.append(contentsOf: a[i...])
        merged.append(contentsOf: b[j...])
        return merged
    }
}
