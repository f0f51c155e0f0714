/// How many marks a chart of the screens has room for: a day a mark up to a year, whole weeks a
/// mark beyond (the archive bins to what the chart is given).
public enum ChartRoom {
    public static let maximumMarks = 366
}
