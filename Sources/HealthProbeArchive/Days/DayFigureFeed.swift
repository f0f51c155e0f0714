import AppleHealthExport
import Foundation

/// The day figures of an export, fed the rows as they are written (in the archive's order, not
/// in time), so that the SQLite export needs no sorted read of its own rows afterwards (that
/// read cost a million-record export three seconds). Each type is figured on its own: its rows
/// wait in a small window ordered by start — an export's rows of one type come nearly in time
/// order — and go to the type's builder once no later row can start before them. A type whose
/// rows break the window (a backfill checked later) is left to a sorted read by the caller.
/// Figures of finished days are handed over as they are made (``takeReady()``), so that a
/// twenty-year export holds a few days of each type, not every day's figure.
package struct DayFigureFeed {
    /// How far a type's rows may come out of time order and still be figured as they come.
    static let window: Double = 2 * 86_400

    private struct Waiting: Comparable {
        var start: Double
        var end: Double?
        var sourceName: String
        var deviceModel: String?
        var enteredByHand: Bool
        var amount: Double?
        var unit: String?
        var category: String?

        static func < (left: Waiting, right: Waiting) -> Bool { left.start < right.start }
        static func == (left: Waiting, right: Waiting) -> Bool { left.start == right.start }
    }

    private struct TypeFeed {
        var type: String
        /// Nil once its rows came out of order: the type is left to the caller's sorted read.
        var builder: DayFigureBuilder?
        var waiting = MinimumHeap<Waiting>()
        var latestStart = -Double.infinity
        var lastSent = -Double.infinity

        /// Hands the builder every waiting row that starts by `instant`, in start order.
        mutating func send(through instant: Double) {
            while let next = waiting.minimum, next.start <= instant {
                _ = waiting.pop()
                lastSent = next.start
                builder?.add(
                    type: type, sourceName: next.sourceName, deviceModel: next.deviceModel,
                    enteredByHand: next.enteredByHand, start: next.start, end: next.end, amount: next.amount,
                    unit: next.unit, category: next.category)
            }
        }
    }

    private let zone: TimeZone
    private let orders: DaySourceOrders
    private var days: LocalDays
    /// Each type's feed, mutated in place (a dictionary's value would be copied, heap and all,
    /// at every row); `slots` finds them, the last type's without a lookup.
    private var feeds: [TypeFeed] = []
    private var slots: [String: Int] = [:]
    private var lastType: (name: String, slot: Int)?
    /// Types whose rows came too far out of order: the caller reads them back sorted.
    package private(set) var unordered: Set<String> = []
    /// The earliest start and latest end of every record fed: the days the figures cover.
    package private(set) var firstStart = Double.infinity
    package private(set) var lastEnd = -Double.infinity
    /// Figures of finished days, not yet taken.
    private var ready: [DayFigure] = []
    private var type = RepeatedText()
    private var source = RepeatedText()
    private var unit = RepeatedText()

    package init(zone: TimeZone, orders: DaySourceOrders) {
        self.zone = zone
        self.orders = orders
        days = LocalDays(zone: zone)
    }

    /// Takes the row at the cursor when it is a present record; `devices` by id.
    package mutating func add(_ cursor: ArchivedRecordCursor, devices: [Int64: DeviceDescription]) {
        guard cursor.isNull(.goneAt), let kind = cursor.text(.kind), kind.elementsEqual("record".utf8),
            let start = cursor.double(.startDate), let typeName = type.text(cursor.text(.type))
        else { return }
        let end = cursor.double(.endDate)
        firstStart = min(firstStart, start)
        lastEnd = max(lastEnd, end ?? start)
        let slot: Int
        if let lastType, lastType.name == typeName {
            slot = lastType.slot
        } else if let known = slots[typeName] {
            slot = known
        } else {
            let first = days.day(of: start) - 3
            slot = feeds.count
            feeds.append(
                TypeFeed(
                    type: typeName,
                    builder: DayFigureBuilder(
                        days: first...(first + 1_000_000), zone: zone, orders: orders, types: [typeName])))
            slots[typeName] = slot
        }
        lastType = (typeName, slot)
        guard feeds[slot].builder != nil else { return }
        let waiting = Waiting(
            start: start, end: end, sourceName: source.text(cursor.text(.sourceName)) ?? "",
            deviceModel: cursor.integer(.deviceId).flatMap { devices[$0]?.canonicalText },
            enteredByHand: SourceArrival.marksHandEntry(cursor.text(.metadata)), amount: cursor.double(.numericValue),
            unit: unit.text(cursor.text(.unit)),
            category: typeName == TypeDays.sleepType ? cursor.string(.value) : nil)
        guard start >= feeds[slot].lastSent else {
            // Released whole: its builder and waiting rows are the caller's sorted read's now,
            // and so are its figures taken before (the caller drops those of `unordered`).
            feeds[slot] = TypeFeed(type: typeName, builder: nil)
            unordered.insert(typeName)
            ready.removeAll { $0.type == typeName }
            return
        }
        feeds[slot].latestStart = max(feeds[slot].latestStart, start)
        feeds[slot].waiting.push(waiting)
        feeds[slot].send(through: feeds[slot].latestStart - Self.window)
        if feeds[slot].builder?.hasFinishedDays == true { ready += feeds[slot].builder!.takeFinished() }
    }

    /// How many figures wait to be taken.
    package var readyCount: Int { ready.count }

    /// The figures of the days finished so far, in the order they were finished; each is
    /// handed over once. Some may be of days before ``firstDay()`` (a type's builder begins a
    /// few days before its first row), which the caller leaves out; those of a type later found
    /// ``unordered`` are the caller's to drop.
    package mutating func takeReady() -> [DayFigure] {
        let taken = ready
        ready = []
        return taken
    }

    /// The local day of the earliest start fed: figures before it are left out.
    package mutating func firstDay() -> Int64? {
        firstStart < .infinity ? days.day(of: firstStart) : nil
    }

    /// Every figure not taken yet of the types fed in order, through the day of the last end, by
    /// day then type; with those taken before (``takeReady()``), every figure from ``firstDay()``.
    package mutating func finish() -> [DayFigure] {
        guard lastEnd > -Double.infinity else { return [] }
        let lastDay = days.day(of: max(firstStart, lastEnd))
        let firstDay = days.day(of: firstStart)
        var figures = takeReady().filter { $0.day >= firstDay }
        for slot in feeds.indices where feeds[slot].builder != nil {
            feeds[slot].send(through: .infinity)
            figures += feeds[slot].builder!.finish(through: lastDay).filter { $0.day >= firstDay }
        }
        return figures.sorted { $0.day != $1.day ? $0.day < $1.day : $0.type < $1.type }
    }
}

/// A binary heap, smallest first.
struct MinimumHeap<Element: Comparable> {
    private var items: [Element] = []

    var minimum: Element? { items.first }

    mutating func push(_ item: Element) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child] < items[parent] else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Element? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count, items[left] < items[smallest] { smallest = left }
            if right < items.count, items[right] < items[smallest] { smallest = right }
            guard smallest != parent else { return top }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
