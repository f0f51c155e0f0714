import Foundation
import GRDB

/// What orders a type's sources, read once: the user's own orders and when each source began
/// writing each type (``SourceArrival``).
public struct DaySourceOrders: Sendable {
    var chosen: [String: [String]] = [:]
    var arrivals: [String: [String: Double]] = [:]

    public init() {}

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
public struct DayFigureBuilder {
    private let range: ClosedRange<Int64>
    private let orders: DaySourceOrders
    private let only: Set<String>?
    private var days: LocalDays
    private var byType: [String: TypeDays] = [:]
    private var typeOrder: [String] = []
    private var next: Int64
    private var nextEnd: Double
    private var tiers: [String: SourceTier] = [:]
    /// Rows come in runs of one source: the last one's tier, without a lookup.
    private var lastTier: (name: String, tier: SourceTier)?
    private(set) var figures: [DayFigure] = []

    /// `types`: only these (nil: every type handed over).
    public init(days range: ClosedRange<Int64>, zone: TimeZone, orders: DaySourceOrders, types: [String]? = nil) {
        self.range = range
        self.orders = orders
        only = types.map(Set.init)
        days = LocalDays(zone: zone)
        next = range.lowerBound
        nextEnd = days.start(of: range.lowerBound + 1)
        for type in types ?? [] { addType(type) }
    }

    /// The first instant a sample must start at to reach the first day: its start less the
    /// lookback (a daily total from the evening before, the night before).
    public mutating func earliestStart() -> Double {
        days.start(of: range.lowerBound) - ArchiveStore.dayFigureLookback - DayFigure.nightBeforeMidnight
    }

    /// The instant after the last day.
    public mutating func end() -> Double { days.start(of: range.upperBound + 1) }

    /// Takes one record; records must come in start order.
    public mutating func add(
        type: String, sourceName: String, deviceModel: String?, enteredByHand: Bool, start: Double, end: Double?,
        amount: Double?, unit: String?, category: String?
    ) {
        while next <= range.upperBound && start >= nextEnd { finishDay() }
        guard only?.contains(type) ?? true else { return }
        if byType[type] == nil { addType(type) }
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
        byType[type]?.add(
            source: name, tier: tier, start: start, end: end ?? start, amount: amount, unit: unit, category: category,
            day: days.day(of: start))
    }

    /// Every figure, in day order, then type order.
    public mutating func finish() -> [DayFigure] {
        while next <= range.upperBound { finishDay() }
        return figures
    }

    private mutating func addType(_ type: String) {
        byType[type] = TypeDays(type: type, order: orders.order(of: type), arrivals: orders.arrivals[type] ?? [:])
        typeOrder.append(type)
        typeOrder.sort()
    }

    private mutating func finishDay() {
        let span = days.span(of: next)
        for type in typeOrder {
            if let figure = byType[type]?.finish(day: next, span: span) { figures.append(figure) }
        }
        next += 1
        nextEnd = days.start(of: next + 1)
    }
}
