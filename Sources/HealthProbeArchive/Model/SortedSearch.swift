extension Array where Element: Comparable {
    /// Where `value` is in this sorted array, by halving; nil when it is not: memory of eight
    /// bytes a sample or forty a route where a set or a dictionary would take twice as much.
    func sortedIndex(of value: Element) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] == value ? low : nil
    }
}
