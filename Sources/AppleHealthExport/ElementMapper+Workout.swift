extension ElementMapper {
    static let workoutAttributes: [StaticString] = sampleAttributes + ["workoutActivityType"]
    static let workoutChildren: [StaticString] = [
        "MetadataEntry", "WorkoutEvent", "WorkoutStatistics", "WorkoutActivity", "WorkoutRoute",
    ]

    func workout(_ reader: ScratchReader, _ node: Int) throws(Unreadable) -> WorkoutElement {
        guard let activityType = reader.attribute(node, "workoutActivityType") else {
            throw Unreadable(reason: "no workoutActivityType attribute")
        }
        let sample = try sampleFields(
            reader, node, type: "HKWorkoutTypeIdentifier", knownAttributes: Self.workoutAttributes,
            knownChildren: Self.workoutChildren)
        let children = reader.children(of: node)
        var events: [WorkoutEventElement] = []
        var statistics: [WorkoutStatisticsElement] = []
        var activities: [WorkoutActivityElement] = []
        var routes: [WorkoutRouteElement] = []
        for child in children {
            if reader.nameEquals(child, "WorkoutEvent") {
                events.append(try event(reader, child))
            } else if reader.nameEquals(child, "WorkoutStatistics") {
                statistics.append(statistic(reader, child))
            } else if reader.nameEquals(child, "WorkoutActivity") {
                activities.append(try activity(reader, child))
            } else if reader.nameEquals(child, "WorkoutRoute") {
                routes.append(route(reader, child))
            }
        }
        return WorkoutElement(
            sample: sample, activityType: activityType, events: events, statistics: statistics,
            activities: activities, routes: routes)
    }

    func event(_ reader: ScratchReader, _ node: Int) throws(Unreadable) -> WorkoutEventElement {
        WorkoutEventElement(
            type: reader.attribute(node, "type") ?? "", date: try optionalTimestamp(reader, node, "date"),
            attributes: reader.otherAttributes(node, excluding: ["type", "date"]),
            metadata: metadata(reader, reader.children(of: node)))
    }

    func statistic(_ reader: ScratchReader, _ node: Int) -> WorkoutStatisticsElement {
        WorkoutStatisticsElement(
            type: reader.attribute(node, "type") ?? "", attributes: reader.otherAttributes(node, excluding: ["type"]))
    }

    func activity(_ reader: ScratchReader, _ node: Int) throws(Unreadable) -> WorkoutActivityElement {
        let children = reader.children(of: node)
        var events: [WorkoutEventElement] = []
        for child in children where reader.nameEquals(child, "WorkoutEvent") {
            events.append(try event(reader, child))
        }
        return WorkoutActivityElement(
            attributes: reader.allAttributes(node), events: events,
            statistics: children.filter { reader.nameEquals($0, "WorkoutStatistics") }.map { statistic(reader, $0) },
            metadata: metadata(reader, children))
    }

    func route(_ reader: ScratchReader, _ node: Int) -> WorkoutRouteElement {
        let children = reader.children(of: node)
        let file = children.first { reader.nameEquals($0, "FileReference") }.flatMap { reader.attribute($0, "path") }
        return WorkoutRouteElement(
            attributes: reader.allAttributes(node), metadata: metadata(reader, children), fileReference: file,
            locations: children.filter { reader.nameEquals($0, "Location") }.map(reader.allAttributes))
    }
}
