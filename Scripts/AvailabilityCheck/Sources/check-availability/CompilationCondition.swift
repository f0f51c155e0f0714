import SwiftSyntax

/// Where code is compiled: one of Apple's platforms the check knows, or this Linux machine.
enum Target: Equatable {
    case apple(Platform)
    case linux

    /// The names `os(...)` takes for the target.
    var osNames: Set<String> {
        switch self {
        case .apple(.macOS): ["macOS", "OSX"]
        case .apple(.iOS): ["iOS"]
        case .linux: ["Linux"]
        }
    }

    /// Whether `canImport(module)` holds there, when that is known from the module alone.
    func canImport(_ module: String) -> Possibility {
        let linuxOnly: Set = ["Glibc", "Musl", "Bionic", "Android", "WinSDK", "ucrt", "CRT"]
        let appleOnly: Set = ["Darwin", "ObjectiveC", "UIKit", "AppKit", "HealthKit", "BackgroundTasks", "SwiftUI"]
        switch self {
        case .linux: return linuxOnly.contains(module) ? .yes : appleOnly.contains(module) ? .no : .maybe
        case .apple(let platform):
            if linuxOnly.contains(module) { return .no }
            if module == "Darwin" || module == "ObjectiveC" { return .yes }
            if module == "AppKit" { return platform == .macOS ? .yes : .no }
            if module == "UIKit" { return platform == .iOS ? .yes : .maybe }
            return .maybe
        }
    }
}

/// Whether a condition holds: known either way, or depending on what this check cannot see
/// (a `-D` flag, the Swift version, the architecture).
enum Possibility {
    case yes, no, maybe

    static prefix func ! (value: Possibility) -> Possibility {
        switch value {
        case .yes: .no
        case .no: .yes
        case .maybe: .maybe
        }
    }

    static func && (left: Possibility, right: Possibility) -> Possibility {
        if left == .no || right == .no { return .no }
        return left == .yes && right == .yes ? .yes : .maybe
    }

    static func || (left: Possibility, right: Possibility) -> Possibility {
        if left == .yes || right == .yes { return .yes }
        return left == .no && right == .no ? .no : .maybe
    }
}

/// The conditions of `#if`, `#elseif` and `#else`, evaluated for a target: a clause is compiled
/// when its own condition may hold and no earlier clause's certainly does. Read from the syntax,
/// not from its text, so `#if !os(Linux)` is Apple's code and `#if os(Linux)` is not.
enum CompilationCondition {
    /// Whether `clause` can be compiled for `target`.
    static func compiles(_ clause: IfConfigClauseSyntax, for target: Target) -> Bool {
        guard let clauses = clause.parent?.as(IfConfigClauseListSyntax.self) else { return true }
        for earlier in clauses {
            if earlier.id == clause.id { break }
            if let condition = earlier.condition, evaluate(condition, for: target) == .yes { return false }
        }
        guard let condition = clause.condition else { return true }
        return evaluate(condition, for: target) != .no
    }

    static func evaluate(_ expression: ExprSyntax, for target: Target) -> Possibility {
        if let literal = expression.as(BooleanLiteralExprSyntax.self) {
            return literal.literal.tokenKind == .keyword(.true) ? .yes : .no
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return !evaluate(prefix.expression, for: target)
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return evaluate(only.expression, for: target)
        }
        if let infix = expression.as(InfixOperatorExprSyntax.self) {
            return combine(
                evaluate(infix.leftOperand, for: target), infix.operator.trimmedDescription,
                evaluate(infix.rightOperand, for: target))
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            return evaluate(sequence: Array(sequence.elements), for: target)
        }
        if let call = expression.as(FunctionCallExprSyntax.self),
            let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
        {
            let argument = call.arguments.first?.expression.trimmedDescription ?? ""
            switch name {
            case "os": return target.osNames.contains(argument) ? .yes : .no
            case "canImport": return target.canImport(argument)
            case "targetEnvironment":
                return target == .apple(.iOS) && ["macCatalyst", "simulator"].contains(argument) ? .maybe : .no
            default: return .maybe
            }
        }
        return .maybe
    }

    /// `a || b && c` as the parser leaves it, unfolded: `&&` binds tighter than `||`.
    private static func evaluate(sequence elements: [ExprSyntax], for target: Target) -> Possibility {
        var alternatives: [[ExprSyntax]] = [[]]
        for element in elements {
            let symbol = element.as(BinaryOperatorExprSyntax.self)?.operator.text
            if symbol == "||" {
                alternatives.append([])
            } else if symbol != "&&" {
                alternatives[alternatives.count - 1].append(element)
            }
        }
        return alternatives.map { terms in
            terms.map { evaluate($0, for: target) }.reduce(Possibility.yes) { $0 && $1 }
        }.reduce(Possibility.no) { $0 || $1 }
    }

    private static func combine(_ left: Possibility, _ symbol: String, _ right: Possibility) -> Possibility {
        switch symbol {
        case "&&": left && right
        case "||": left || right
        default: .maybe
        }
    }
}
