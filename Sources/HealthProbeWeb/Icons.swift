/// Inline SVG equivalents of the SF Symbols the app uses, drawn here (no third-party icon set).
/// Decorative: hidden from screen readers, which read the text beside them.
enum Icons {
    private static let paths: [String: String] = [
        "checkmark.shield.fill":
            "M12 2 4 5v6c0 5 3.4 9.5 8 11 4.6-1.5 8-6 8-11V5l-8-3Zm-1.2 14.2-3.5-3.5 1.4-1.4 2.1 2.1 4.9-4.9 1.4 1.4-6.3 6.3Z",
        "exclamationmark.triangle.fill": "M12 2 1 21h22L12 2Zm1 15h-2v-2h2v2Zm0-4h-2V9h2v4Z",
        "xmark.shield.fill":
            "M12 2 4 5v6c0 5 3.4 9.5 8 11 4.6-1.5 8-6 8-11V5l-8-3Zm3.5 12.1-1.4 1.4L12 13.4l-2.1 2.1-1.4-1.4 2.1-2.1-2.1-2.1 1.4-1.4 2.1 2.1 2.1-2.1 1.4 1.4-2.1 2.1 2.1 2.1Z",
        "questionmark.circle.fill":
            "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 16h-2v-2h2v2Zm2.1-7.7-.9.9c-.7.7-1.2 1.3-1.2 2.8h-2v-.5c0-1.1.5-2.1 1.2-2.8l1.2-1.3c.4-.4.6-.9.6-1.4a2 2 0 0 0-4 0H8a4 4 0 0 1 8 0c0 .9-.4 1.7-.9 2.3Z",
        "clock.arrow.circlepath":
            "M13 3a9 9 0 0 0-9 9H1l3.9 3.9L9 12H6a7 7 0 1 1 2.1 5l-1.4 1.4A9 9 0 1 0 13 3Zm-1 5v5l4.3 2.5.7-1.2-3.5-2.1V8H12Z",
        "externaldrive.fill.badge.checkmark":
            "M3 13h18l-2.5-7h-13L3 13Zm0 2v4h18v-4H3Zm14 1.5a1.5 1.5 0 1 1 0 .01V16.5Z",
        "gearshape":
            "M19.4 13a7.5 7.5 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.3 7.3 0 0 0-1.7-1L15 3h-4l-.4 2.8a7.3 7.3 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.5 7.5 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1c.5.4 1.1.7 1.7 1L11 21h4l.4-2.8c.6-.3 1.2-.6 1.7-1l2.5 1 2-3.5-2.2-1.7ZM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7Z",
        "gauge":
            "M12 4a10 10 0 0 0-10 10h2a8 8 0 0 1 16 0h2A10 10 0 0 0 12 4Zm4.2 4.4-5 4.2a1.8 1.8 0 1 0 2.5 2.5l4.2-5-1.7-1.7Z",
        "doc.text.magnifyingglass":
            "M6 2h9l5 5v6.5a5.5 5.5 0 0 0-2-.5V8h-4V4H6v16h6.3a5.5 5.5 0 0 0 1.2 2H6a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2Zm11.5 12a3.5 3.5 0 0 1 3 5.3l2 2-1.2 1.2-2-2a3.5 3.5 0 1 1-1.8-6.5Zm0 1.5a2 2 0 1 0 0 4 2 2 0 0 0 0-4ZM8 10h8v1.5H8V10Zm0 3h5v1.5H8V13Z",
    ]

    /// The icon named like its SF Symbol, as inline SVG.
    static func svg(_ name: String, className: String = "icon") -> String {
        let path = paths[name] ?? paths["questionmark.circle.fill"]!
        return
            "<svg class=\"\(className)\" viewBox=\"0 0 24 24\" width=\"24\" height=\"24\" aria-hidden=\"true\" focusable=\"false\"><path fill=\"currentColor\" d=\"\(path)\"/></svg>"
    }
}
