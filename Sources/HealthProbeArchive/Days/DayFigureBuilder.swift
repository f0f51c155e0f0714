import Foundation
internal import GRDB

/// What orders a type's sources, read once: the user's own orders and when each source began
/// writing each type (``SourceArrival``).
package struct DaySourceOrders: Sendable {
    var chosen: [String: [String]] = [:]
    var arrivals: [String: [String: Double]] = [:]

    package init() {}

    /// For `types`, or for every type when nil.
    static func read(_ db: Database, types: [String]?) throws -> DaySourceOrders {
        var orders = DaySourceOrders()
        let prefix = SourceOrder.settingKey(type: "")
        for (key, value) in try SettingRows.values(db, prefix: prefix) {
            let type = String(key.dropFirst(prefix.count))
            if types?.contains(type) ?? true { orders.chosen[type] = value.split(separator: "\n").map(String.init) }
        }
        orders.arrivals = try SourceArrival.read(db, types: types)
        return orders
    }

    func order(of type: String) -> SourceOrder { SourceOrder(chosen: chosen[type] ?? []) }
}

/// Each day's figures from samples handed over in start order — from the archive
/// (``ArchiveStore/dayFigures(types:days:zone:)``) or from an export being written — for the
/// local days asked for: a day is finished as soon as a sample starts after it, so memory holds
/// a day's samples, not the period's.
package struct DayFigureBuilder {
    private let range: ClosedRange<Int64>
    private let orders: DaySourceOrders
    /// Whether the types were given up front: others handed over are left out.
    private let onlyTheTypesGiven: Bool
    private var days: LocalDays
    /// Each type's days, in the order types appeared; `slots` finds them by name.
    private var typeDays: [TypeDays] = []
    private var slots: [String: Int] = [:]
    /// Rows come in runs of one type: the last one's slot, without a lookup.
    private var lastType: (name: String, slot: Int)?
    /// Slots in type order, for each day's figures.
    private var typeOrder: [Int] = []
    private var next: Int64
    private var nextEnd: Double
    private var tiers: [String: SourceTier] = [:]
    /// Rows come in runs of one source: the last one's tier, without a lookup.
    private var lastTier: (name: String, tier: SourceTier)?
    private(set) var figures: [DayFigure] = []

    /// `types`: only these (nil: every type handed over).
    package init(days range: ClosedRange<Int64>, zone: TimeZone, orders: DaySourceOrders, types: [String]? = nil) {
        self.range = range
        self.orders = orders
        onlyTheTypesGiven = types != nil
        days = LocalDays(zone: zone)
        next = range.lowerBound
        nextEnd = days.start(of: range.lowerBound + 1)
        for type in types ?? [] { addType(type) }
    }

    /// The first instant a sample must start at to reach the first day: its start less the
    /// lookback (a daily total from the evening before, the night before).
    mutating func earliestStart() -> Double {
        days.start(of: range.lowerBound) - ArchiveStore.dayFigureLookback - DayFigure.nightBeforeMidnight
    }

    /// The instant after the last day.
    package mutating func end() -> Double { days.start(of: range.upperBound + 1) }

    /// Takes one record; records must come in start order.
    package mutating func add(
        type: String, sourceName: String, deviceModel: String?, enteredByHand: Bool, start: Double, end: Double?,
        amount: Double?, unit: String?, category: String?
    ) {
        while next <= range.upperBound && start >= nextEnd { finishDay() }
        let slot: Int
        if let lastType, lastType.name == type {
            slot = lastType.slot
        } else if let known = slots[type] {
            slot = known
            lastType = (type, known)
        } else {
            guard !onlyTheTypesGiven else { return }
            slot = addType(type)
        }
        let name = enteredByHand ? SourceOrder.handEnteredName(sourceName) : sourceName
        let tier: SourceTier
        if let last = lastTier, last.name == name {
            tier = last.tier
        } else if let known = tiers[name] {
            tier = known
            lastTier = (name, known)
        } else {
            tier = SourceOrder.tier(sourceName: sourceName, deviceModel: deviceModel, enteredByHand: enteredByHand)
            tiers[name] = tier
        }
        typeDays[slot].add(
            source: name, tier: tier, start: start, end: end ?? start, amount: amount, unit: unit, category: category,
            day: days.day(of: start))
    }

    /// Every figure, in day order, then type order.
    package mutating func finish() -> [DayFigure] {
        finish(through: range.upperBound)
    }

    /// Whether days were finished since their figures were last taken.
    var hasFinishedDays: Bool { !figures.isEmpty }

    /// The figures of the days finished so far, handed over once: a builder fed a long period
    /// then holds only the days it has not handed over.
    package mutating func takeFinished() -> [DayFigure] {
        let taken = figures
        figures = []
        return taken
    }

    /// Every figure of the days through `lastDay` (a builder given an open-ended range).
    package mutating func finish(through lastDay: Int64) -> [DayFigure] {
        while next <= min(lastDay, range.upperBound) { finishDay() }
        return figures
    }

    @discardableResult
    private mutating func addType(_ type: String) -> Int {
        let slot = typeDays.count
        typeDays.append(TypeDays(type: type, order: orders.order(of: type), arrivals: orders.arrivals[type] ?? [:]))
        slots[type] = slot
        typeOrder.append(slot)
        typeOrder.sort { typeDays[$0].type < typeDays[$1].type }
        return slot
    }

    private mutating func finishDay() {
        let span = days.span(of: next)
        for slot in typeOrder {
            if let figure = typeDays[slot].finish(day: next, span: span) { figures.append(figure) }
        }
        next += 1
        nextEnd = days.start(of: next + 1)
    }
}
