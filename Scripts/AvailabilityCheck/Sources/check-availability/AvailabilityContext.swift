import SwiftParser
import SwiftSyntax

/// What a place in a source file guarantees: the versions its enclosing `@available` declarations,
/// `if #available` branches and earlier `guard #available` statements require, and the Apple
/// platforms its enclosing `#if` clauses let it be compiled for (none under `#if os(Linux)`, macOS
/// alone under `#if os(macOS)`).
struct AvailabilityContext {
    var versions: Versions = [:]
    var platforms = Set(Platform.allCases)
}

/// One source file, parsed once, asked about many places.
struct SourceFile {
    let tree: SourceFileSyntax
    let converter: SourceLocationConverter

    init(path: String, text: String) {
        tree = Parser.parse(source: text)
        converter = SourceLocationConverter(fileName: path, tree: tree)
    }

    /// The context at a line and a UTF-8 column, both from 1 (as the index store counts).
    func context(line: Int, column: Int) -> AvailabilityContext {
        let position = converter.position(ofLine: line, column: column)
        guard let token = tree.token(at: position) else { return AvailabilityContext() }
        var context = AvailabilityContext()
        var node: Syntax? = Syntax(token)
        var child: Syntax = Syntax(token)
        while let current = node {
            if let declaration = current.asProtocol(WithAttributesSyntax.self) {
                for attribute in declaration.attributes {
                    guard case .attribute(let attribute) = attribute,
                        attribute.attributeName.trimmedDescription == "available",
                        case .availability(let arguments) = attribute.arguments
                    else { continue }
                    Self.raise(&context, by: arguments)
                }
            }
            if let branch = current.as(IfExprSyntax.self), branch.body.id == child.id {
                Self.raise(&context, by: branch.conditions)
            }
            if let items = current.as(CodeBlockItemListSyntax.self) {
                for item in items {
                    if item.id == child.id { break }
                    if let guardStatement = item.item.as(GuardStmtSyntax.self) {
                        Self.raise(&context, by: guardStatement.conditions)
                    }
                }
            }
            if let clause = current.as(IfConfigClauseSyntax.self) {
                context.platforms = context.platforms.filter {
                    CompilationCondition.compiles(clause, for: .apple($0))
                }
            }
            child = current
            node = current.parent
        }
        return context
    }

    private static func raise(_ context: inout AvailabilityContext, by conditions: ConditionElementListSyntax) {
        for element in conditions {
            guard case .availability(let condition) = element.condition,
                condition.availabilityKeyword.tokenKind == .poundAvailable
            else { continue }
            raise(&context, by: condition.availabilityArguments)
        }
    }

    private static func raise(_ context: inout AvailabilityContext, by arguments: AvailabilityArgumentListSyntax) {
        for argument in arguments {
            guard case .availabilityVersionRestriction(let restriction) = argument.argument,
                let versionText = restriction.version?.trimmedDescription, let version = Version(versionText)
            else { continue }
            let name = restriction.platform.text
            for platform in Platform.allCases where platform.availabilityNames.contains(name) {
                context.versions[platform] = max(version, context.versions[platform] ?? version)
            }
        }
    }
}
