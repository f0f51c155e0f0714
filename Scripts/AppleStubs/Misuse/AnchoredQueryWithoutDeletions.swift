// An anchored query's results handler receives the deleted objects too; the old four-argument
// form (an `Int` anchor, no deletions) is not the one HealthProbe relies on.
import HealthKit

func changes(_ type: HKSampleType) -> HKQuery {
    HKAnchoredObjectQuery(type: type, predicate: nil, anchor: nil, limit: 100) { _, samples, anchor, _ in
        _ = (samples, anchor)
    }
}
