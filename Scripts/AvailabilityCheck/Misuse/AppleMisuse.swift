// The availability check's test for the Apple-only code: compiled against Scripts/AppleStubs (whose
// declarations carry Apple's documented availability) and checked at iOS 16, it must name exactly
// the uses marked "refused" (expected-apple.txt).
import BackgroundTasks
import SwiftUI

struct Unguarded: View {
    var body: some View {
        Text("Test User").onChange(of: 1, initial: true) { _, _ in }  // refused: iOS 17
    }
}

struct Guarded: View {
    var body: some View {
        if #available(iOS 17.0, *) {
            Text("Test User").onChange(of: 1, initial: true) { _, _ in }
        } else {
            Text("Test User")
        }
    }
}

@available(iOS 17.0, *)
struct Annotated: View {
    var body: some View {
        Text("Test User").onChange(of: 1, initial: true) { _, _ in }
    }
}

func schedule() throws {
    try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "test"))  // iOS 13: not refused
}
