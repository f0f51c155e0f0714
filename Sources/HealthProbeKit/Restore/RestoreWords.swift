import HealthProbeArchive

/// A restore's words, the same on every face: "111 records", "anomalies 3, 4".
public enum RestoreWords {
    public static func records(_ count: Int) -> String {
        "\(EvidenceText.grouped(count)) record\(count == 1 ? "" : "s")"
    }

    public static func anomalies(_ ids: [Int64]) -> String {
        (ids.count == 1 ? "anomaly " : "anomalies ") + ids.map(String.init).joined(separator: ", ")
    }
}
