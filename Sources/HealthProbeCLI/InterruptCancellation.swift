import Foundation
import HealthProbeKit

/// Turns SIGINT and SIGTERM into a cancellation while an export runs: the export stops within
/// a second, removes its temporary and exits 130.
final class InterruptCancellation {
    let cancellation = CancellationFlag()
    private var sources: [DispatchSourceSignal] = []

    init() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [cancellation] in cancellation.cancel() }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
