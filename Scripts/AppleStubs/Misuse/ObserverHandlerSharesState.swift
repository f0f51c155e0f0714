// HealthKit calls an observer's handler on its own background queue (`@Sendable`): it cannot
// touch state that is not safe to share.
import HealthKit

final class Counter {
    var wakes = 0
}

func observe(_ store: HKHealthStore, _ type: HKSampleType, _ counter: Counter) {
    let query = HKObserverQuery(sampleType: type, predicate: nil) { _, completion, _ in
        counter.wakes += 1
        completion()
    }
    store.execute(query)
}
