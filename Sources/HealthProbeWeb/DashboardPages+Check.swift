import Foundation
import HealthProbeArchive
import HealthProbeKit
import HealthProbeScreens
import Hummingbird

extension DashboardPages {
    struct CheckFormView: Sendable {
        var running: String?
        /// An upload that arrived while another check ran: not checked, and deleted.
        var refusedBusy = false
        var maxUpload: String
    }

    struct CheckProgressView: Sendable {
        var inputName: String
        var running: Bool
        var phase: String?
        var records: String?
        var percent: Int?
        var currentType: String?
        var failed: String?
        var archiveUnchanged = false
        /// The choice a refusal offers: the same file again, checked all the same.
        var allowAnyway: AllowChoiceView?
        var done: Bool
        var statusRole: String?
        var statusIcon: String?
        var statusTitle: String?
        var verdict: String?
        var captureId: Int64?
        var new: String?
        var unchanged: String?
        var gone: String?
        var unreadable: String?
        var anomalies: [AnomalyRowView] = []
        var notes: [String] = []
    }

    /// A refused file offered again: the command line's `--allow-older` or `--allow-unrelated`.
    struct AllowChoiceView: Sendable {
        var value: String
        var explanation: String
        var button: String

        init?(_ wayOn: WayOn?) {
            switch wayOn {
            case .allowUnrelated:
                value = "unrelated"
                explanation =
                    "If it is yours all the same (a new iPhone, or Health set up afresh), choose the same file again "
                    + "to check it all the same. What it does not share with the archive is then one critical anomaly, "
                    + "and the capture can be set aside later (healthprobe captures exclude)."
                button = "Check it all the same"
            case .allowOlder:
                value = "older"
                explanation =
                    "To compare this older export with the archive all the same, choose it again: what was recorded "
                    + "since it was made will be counted as gone until a newer export is checked."
                button = "Compare it all the same"
            default: return nil
            }
        }
    }

    func checkForm(_ request: Request) -> Response {
        let view = CheckFormView(
            running: jobs.runningJobID.map { "/check/\($0)" },
            refusedBusy: request.uri.queryParameters.get("refused") == "busy",
            maxUpload: format.bytes(configuration.maxUploadBytes))
        return renderer.html("check", title: "Check Now", tab: .dashboard, body: view)
    }

    /// Receives the upload (streamed to disk), starts its check and sends the browser to the
    /// check's page.
    func startCheck(_ request: Request) async throws -> Response {
        // One check at a time: an upload meanwhile is not kept, and the page says so.
        if jobs.runningJobID != nil { return redirect(to: "/check?refused=busy") }
        let receiver = UploadReceiver(
            csrfToken: configuration.csrfToken, limit: configuration.maxUploadBytes,
            directory: configuration.uploadDirectory)
        let upload: UploadReceiver.Upload
        do {
            upload = try await receiver.receive(request)
        } catch let failure as UploadReceiver.Failure {
            switch failure {
            case .forbidden: return forbidden()
            case .notAForm, .noFile:
                return renderer.error(
                    .badRequest, title: "No file", message: "Choose an export.zip to check.",
                    link: ("/check", "Check Now"))
            case .tooLarge(let limit):
                return renderer.error(
                    .contentTooLarge, title: "The file is too large",
                    message:
                        "The dashboard takes files up to \(format.bytes(limit)); check a larger export with `healthprobe check`.",
                    link: ("/check", "Check Now"))
            }
        }
        guard
            let id = jobs.start(
                file: upload.file, folder: upload.folder, inputName: upload.name, access: access,
                allowOlder: upload.allowOlder, allowUnrelated: upload.allowUnrelated)
        else {
            return redirect(to: "/check?refused=busy")
        }
        return redirect(to: "/check/\(id)")
    }

    func checkProgress(context: some RequestContext) -> Response {
        guard let id = context.parameters.get("id"), let job = jobs.job(id) else {
            return notFound("There is no such check: checks are kept only while the dashboard runs.")
        }
        var view = CheckProgressView(inputName: job.inputName, running: false, failed: nil, done: false)
        switch job.state {
        case .running(let progress):
            view.running = true
            view.phase = progress.map { $0.phase == .reading ? "Reading" : "Finishing" } ?? "Starting"
            view.records = format.count(progress?.records ?? 0)
            if let progress, let total = progress.totalBytes, total > 0 {
                view.percent = Int(min(100, Double(progress.bytesRead) * 100 / Double(total)))
            }
            view.currentType = progress?.currentType.map(HealthKitCatalog.displayName)
            return renderer.html(
                "checkProgress", title: "Checking", tab: .dashboard, body: view, refreshSeconds: 1)
        case .failed(let message, let archiveUnchanged, let wayOn):
            view.failed = message
            view.archiveUnchanged = archiveUnchanged
            view.allowAnyway = AllowChoiceView(wayOn)
            return renderer.html("checkProgress", title: "Check refused", tab: .dashboard, body: view)
        case .done(let capture, let anomalies, let notes):
            let status = MonitorStatus.from(anomalies)
            let indicator = StatusIndicator(status)
            view.done = true
            view.statusRole = indicator.role.rawValue
            view.statusIcon = Icons.svg(indicator.symbol)
            view.statusTitle = indicator.title
            view.verdict = CheckVerdict.detail(
                anomalies, firstCapture: capture.previousCaptureId == nil,
                howToShow: "Open an anomaly for its evidence.")
            view.captureId = capture.id
            view.records = format.count(capture.records)
            view.new = format.count(capture.new)
            view.unchanged = format.count(capture.unchanged)
            view.gone = format.count(capture.gone)
            view.unreadable = capture.unreadable > 0 ? format.count(capture.unreadable) : nil
            view.anomalies = anomalies.sorted { ($0.severity, $1.id) > ($1.severity, $0.id) }.map {
                AnomalyRowView(AnomalyRow($0, format: format), returnPath: "/check/\(id)")
            }
            view.notes = notes
            return renderer.html("checkProgress", title: "Check result", tab: .dashboard, body: view)
        }
    }
}
