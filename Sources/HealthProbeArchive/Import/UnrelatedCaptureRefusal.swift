import Foundation

/// A capture that shares almost nothing with what the archive held and would mark nearly all of
/// it gone: most likely someone else's export or backup, or another file, picked by mistake.
/// Checked, it would report every record lost and turn the real next export into "older than the
/// one last checked". Refused unless asked for; the archive is left as it was.
public struct UnrelatedCaptureRefusal: Refusal, LocalizedError, Sendable {
    public var inputName: String
    /// The records the archive held before, how many of them the capture holds, and how many it
    /// would mark gone.
    public var held: Int
    public var shared: Int
    public var gone: Int

    /// Below this many records held, a capture is never judged unrelated: a first few records are
    /// no life's history to tell apart.
    static let smallestHistory = 100

    public var exitCode: Int32 { RefusalCode.unreadableInput }
    public var wayOn: WayOn? { .allowUnrelated }
    public func trailLine(for input: URL) -> String? { "refused \(message)" }
    public var errorDescription: String? { message }

    public var message: String {
        "\(inputName) holds \(EvidenceText.grouped(shared)) of the \(EvidenceText.grouped(held)) records the archive "
            + "held and would mark \(EvidenceText.grouped(gone)) of them gone: it looks like someone else's export or "
            + "another file, and nothing was written"
    }

    /// Whether fewer than a tenth of the records held are in the capture and at least half would
    /// be marked gone (of a history of at least ``smallestHistory`` records).
    static func isUnrelated(held: Int, shared: Int, gone: Int) -> Bool {
        held >= smallestHistory && shared * 10 < held && gone * 2 >= held
    }

    /// Throws when fewer than a tenth of the records held are in the capture and at least half
    /// would be marked gone.
    static func check(held: Int, shared: Int, gone: Int, inputName: String) throws {
        guard isUnrelated(held: held, shared: shared, gone: gone) else { return }
        throw UnrelatedCaptureRefusal(inputName: inputName, held: held, shared: shared, gone: gone)
    }
}

extension CaptureWrite {
    /// Refuses a capture that shares almost nothing with what the archive held
    /// (``UnrelatedCaptureRefusal``), once its records are matched and the absent ones marked:
    /// `gone` of them absent, `shared` met again.
    func refuseUnrelated(shared: Int, gone: Int, inputName: String) throws {
        if startedEmpty { return }
        try UnrelatedCaptureRefusal.check(held: shared + gone, shared: shared, gone: gone, inputName: inputName)
    }
}
