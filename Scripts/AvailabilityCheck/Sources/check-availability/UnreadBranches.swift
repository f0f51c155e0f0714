import SwiftParser
import SwiftSyntax

/// The `#if` branches of a file that this machine never compiles but an Apple platform may
/// (`#if canImport(Darwin)`, `#if os(iOS)`, the `#else` of `#if os(Linux)`): the index holds
/// nothing of them, so what they use is not checked here.
enum UnreadBranches {
    /// The lines (from 1) where such branches begin, in a file's text.
    static func lines(in text: String, path: String) -> [Int] {
        guard text.contains("#if") else { return [] }
        let tree = Parser.parse(source: text)
        let converter = SourceLocationConverter(fileName: path, tree: tree)
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(tree)
        return finder.clauses.map { $0.startLocation(converter: converter).line }
    }

    private final class Finder: SyntaxVisitor {
        var clauses: [IfConfigClauseSyntax] = []

        override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
            let holdsCode = node.elements.map { !$0.trimmedDescription.isEmpty } ?? false
            let onApple = Platform.allCases.contains { CompilationCondition.compiles(node, for: .apple($0)) }
            if holdsCode, onApple, !CompilationCondition.compiles(node, for: .linux) {
                clauses.append(node)
                return .skipChildren
            }
            return .visitChildren
        }
    }
}
