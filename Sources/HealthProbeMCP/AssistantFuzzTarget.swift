import Foundation

/// The assistant's request reader as an entry point for the fuzzer (Scripts/fuzz.sh `request`)
/// and the replay of its corpus in the tests: any line is screened, and any answer read for its
/// ids, without a trap, a hang or memory without bound.
public enum AssistantFuzzTarget {
    public static func request(_ bytes: [UInt8]) {
        if case .answer(let error) = RequestScreening.screen(bytes) { _ = RequestScreening.answeredIDs(error) }
        _ = RequestScreening.answeredIDs(Data(bytes))
    }
}
