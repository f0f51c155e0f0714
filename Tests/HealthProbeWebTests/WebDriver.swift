import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A headless Chromium driven through chromedriver's WebDriver protocol (plain HTTP and JSON).
final class WebDriver: @unchecked Sendable {
    static let chromedriver = "/usr/bin/chromedriver"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: chromedriver) }

    private let process: Process
    private let base: URL
    private var session = ""

    init() async throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.chromedriver)
        process.arguments = ["--port=0"]
        let output = Pipe()
        process.standardOutput = output
        // An inherited stderr pipe keeps the test runner waiting: send it nowhere.
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = try await ProcessLines.first(matching: "started successfully on port ", in: output)
        let port = line.components(separatedBy: "on port ").last?.prefix { $0.isNumber } ?? ""
        base = URL(string: "http://127.0.0.1:\(port)")!
        let created = try await send(
            "POST", "/session",
            [
                "capabilities": [
                    "alwaysMatch": [
                        "goog:chromeOptions": [
                            "binary": "/usr/bin/chromium",
                            "args": [
                                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                "--window-size=1280,900",
                            ],
                        ]
                    ]
                ]
            ])
        session = ((created["value"] as? [String: Any])?["sessionId"] as? String) ?? ""
    }

    func open(_ url: String) async throws { _ = try await send("POST", "/session/\(session)/url", ["url": url]) }

    func click(_ selector: String) async throws {
        let element = try await find(selector)
        _ = try await send("POST", "/session/\(session)/element/\(element)/click", [:])
    }

    func type(_ text: String, into selector: String) async throws {
        let element = try await find(selector)
        _ = try await send("POST", "/session/\(session)/element/\(element)/value", ["text": text])
    }

    /// The page's visible text.
    func text() async throws -> String {
        try await script("return document.body.innerText") as? String ?? ""
    }

    func script(_ source: String) async throws -> Any? {
        try await send("POST", "/session/\(session)/execute/sync", ["script": source, "args": []])["value"]
    }

    func screenshot(to url: URL) async throws {
        let encoded = try await send("GET", "/session/\(session)/screenshot", nil)["value"] as? String ?? ""
        try Data(base64Encoded: encoded)?.write(to: url)
    }

    /// Waits up to `seconds` for the page's text to contain `text`.
    func waitFor(_ text: String, seconds: Double = 60) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await self.text().contains(text) { return true }
            try await Task.sleep(nanoseconds: 250_000_000)
        }
        return false
    }

    /// Waits up to `seconds` for a script's condition to hold (a form's page may still be loading
    /// when a click returns).
    func waitUntil(_ condition: String, seconds: Double = 30) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await script("return Boolean(\(condition))") as? Bool == true { return true }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return false
    }

    /// The window's outer size; a phone's is 390 × 844.
    func resize(width: Int, height: Int) async throws {
        _ = try await send("POST", "/session/\(session)/window/rect", ["width": width, "height": height])
    }

    /// Pages as with the system in dark mode (or light), through the DevTools protocol.
    func prefersDark(_ dark: Bool) async throws {
        _ = try await send(
            "POST", "/session/\(session)/goog/cdp/execute",
            [
                "cmd": "Emulation.setEmulatedMedia",
                "params": ["features": [["name": "prefers-color-scheme", "value": dark ? "dark" : "light"]]],
            ])
    }

    /// What does not fit: how much wider than the window the page is, and the visible text
    /// smaller than 11 px (each as `tag: size`).
    /// What a reader would find wrong with the page's layout: how much wider than the window it
    /// is, visible text under 11 px, boxes whose content is cut off or must be scrolled sideways
    /// to be read (`cut`), and numbers broken across two lines (`split`, "11,03" / "4").
    struct LayoutProblems {
        var overflow: Int
        var smallText: [String]
        var cut: [String]
        var split: [String]
    }

    func layoutProblems() async throws -> LayoutProblems {
        let found =
            try await script(
                """
                const root = document.documentElement;
                const name = e => e.tagName.toLowerCase() + (e.className && typeof e.className === 'string'
                  ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
                const small = [], cut = [], split = [];
                for (const element of document.querySelectorAll('body *')) {
                  const style = getComputedStyle(element);
                  const own = [...element.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
                  if (own && element.getClientRects().length && parseFloat(style.fontSize) < 11) {
                    small.push(element.tagName + ': ' + style.fontSize);
                  }
                  if (style.overflowX !== 'visible' && element.clientWidth > 16
                      && element.scrollWidth > element.clientWidth + 1) {
                    cut.push(name(element) + ' (' + (element.scrollWidth - element.clientWidth) + ' px)');
                  }
                  for (const node of element.childNodes) {
                    if (node.nodeType !== 3) continue;
                    for (const match of node.textContent.matchAll(/\\d[\\d,.]*\\d/g)) {
                      const range = document.createRange();
                      range.setStart(node, match.index);
                      range.setEnd(node, match.index + match[0].length);
                      const lines = new Set([...range.getClientRects()].map(r => Math.round(r.bottom)));
                      if (lines.size > 1) split.push(match[0] + ' in ' + name(element));
                    }
                  }
                }
                return [root.scrollWidth - root.clientWidth, small, cut, split];
                """) as? [Any] ?? []
        let lists = found.dropFirst().map { ($0 as? [String]) ?? ["unreadable"] }
        return LayoutProblems(
            overflow: (found.first as? Int) ?? Int.max, smallText: lists.first ?? ["unreadable"],
            cut: lists.count > 1 ? lists[1] : ["unreadable"], split: lists.count > 2 ? lists[2] : ["unreadable"])
    }

    func quit() async {
        _ = try? await send("DELETE", "/session/\(session)", nil)
        _ = try? await send("GET", "/shutdown", nil)
        process.terminate()
    }

    private func find(_ selector: String) async throws -> String {
        let found = try await send(
            "POST", "/session/\(session)/element", ["using": "css selector", "value": selector])
        let value = found["value"] as? [String: Any]
        guard let id = value?.values.first as? String else { throw WebDriverError(message: "no element \(selector)") }
        return id
    }

    @discardableResult
    private func send(_ method: String, _ path: String, _ body: [String: Any]?) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: base.absoluteString + path)
        request.method = HTTPMethod(rawValue: method)
        if let body {
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
            request.headers.add(name: "Content-Type", value: "application/json")
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(90))
        let data = Data(buffer: try await response.body.collect(upTo: 64 << 20))
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        if let value = object["value"] as? [String: Any], let error = value["error"] as? String {
            throw WebDriverError(message: "\(error): \(value["message"] as? String ?? "")")
        }
        return object
    }
}

struct WebDriverError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Reads a child process's output until a line holds what is wanted.
enum ProcessLines {
    static func first(matching needle: String, in pipe: Pipe, seconds: Double = 30) async throws -> String {
        let handle = pipe.fileHandleForReading
        var buffer = ""
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let data = handle.availableData
            if data.isEmpty { break }
            buffer += String(decoding: data, as: UTF8.self)
            if let line = buffer.split(separator: "\n").first(where: { $0.contains(needle) }) { return String(line) }
        }
        throw WebDriverError(message: "no line with \(needle)")
    }
}
