// A stub of SwiftUI (iOS 17 and 18 SDKs), written from Apple's documentation for the
// declarations the app uses, so that its views and its `App` are type-checked on Linux: names,
// argument labels, generic constraints, result builders, isolation (`View` and `App` are
// main-actor protocols; `Binding`'s closures are `@Sendable`). No body runs: every one traps.
// Where Apple's declaration is more general than the app needs, the stub keeps Apple's shape for
// the overloads the app calls and leaves the others out, so a call that matches none is refused.
import Foundation

// MARK: Views and their builder

@available(iOS 13.0, macOS 10.15, *)
@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, *)
@resultBuilder
public struct ViewBuilder {
    public static func buildBlock() -> EmptyView { fatalError() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<
        (repeat each Content)
    > {
        fatalError()
    }
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent)
        -> _ConditionalContent<TrueContent, FalseContent>
    { fatalError() }
    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent)
        -> _ConditionalContent<TrueContent, FalseContent>
    { fatalError() }
}

extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, *)
public struct EmptyView: View {
    public init() {}
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, *)
public struct TupleView<T>: View {
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, *)
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    public var body: Never { fatalError() }
}

/// What a modifier returns: a view the stub never builds.
@available(iOS 13.0, macOS 10.15, *)
public struct ModifiedView<Content: View>: View {
    public var body: Never { fatalError() }
}

// MARK: Text, images, labels

@available(iOS 13.0, macOS 10.15, *)
public struct LocalizedStringKey: ExpressibleByStringInterpolation, Equatable, Sendable {
    public struct StringInterpolation: StringInterpolationProtocol {
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) {}
        public mutating func appendInterpolation(_ string: String) {}
        public mutating func appendInterpolation<Subject: BinaryInteger>(_ value: Subject) {}
        public mutating func appendInterpolation(_ text: Text) {}
    }
    public init(_ value: String) {}
    public init(stringLiteral value: String) {}
    public init(stringInterpolation: StringInterpolation) {}
}

@available(iOS 13.0, macOS 10.15, *)
public struct Text: View, Equatable, Sendable {
    public init(_ key: LocalizedStringKey) {}
    @_disfavoredOverload public init<S: StringProtocol>(_ content: S) {}
    public init(verbatim content: String) {}
    @available(iOS 13.0, macOS 10.15, *)
    public func font(_ font: Font?) -> Text { self }
    public func bold() -> Text { self }
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, *)
public struct Image: View, Sendable {
    public init(systemName: String) {}
    public var body: Never { fatalError() }
}

@available(iOS 14.0, macOS 11.0, *)
public struct Label<Title: View, Icon: View>: View {
    public var body: Never { fatalError() }
}

extension Label where Title == Text, Icon == Image {
    public init(_ titleKey: LocalizedStringKey, systemImage name: String) {}
    @_disfavoredOverload public init<S: StringProtocol>(_ title: S, systemImage name: String) {}
}

@available(iOS 16.0, macOS 13.0, *)
public struct LabeledContent<Label: View, Content: View>: View {
    public var body: Never { fatalError() }
}

extension LabeledContent where Label == Text {
    public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) {}
    @_disfavoredOverload public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {}
}

extension LabeledContent where Label == Text, Content == Text {
    public init<S: StringProtocol>(_ titleKey: LocalizedStringKey, value: S) {}
    @_disfavoredOverload public init<S1: StringProtocol, S2: StringProtocol>(_ title: S1, value: S2) {}
}

// MARK: Containers

@available(iOS 13.0, macOS 10.15, *)
public enum HorizontalAlignment: Sendable { case leading, center, trailing }
@available(iOS 13.0, macOS 10.15, *)
public enum VerticalAlignment: Sendable { case top, center, bottom }

@available(iOS 13.0, macOS 10.15, *)
public struct HStack<Content: View>: View {
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, *)
public struct VStack<Content: View>: View {
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content)
    {}
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, *)
public struct List<SelectionValue: Hashable, Content: View>: View {
    public var body: Never { fatalError() }
}

extension List where SelectionValue == Never {
    public init(@ViewBuilder content: () -> Content) {}
    public init<Data: RandomAccessCollection, RowContent: View>(
        _ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    ) where Content == ForEach<Data, Data.Element.ID, RowContent>, Data.Element: Identifiable {}
}

@available(iOS 13.0, macOS 10.15, *)
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
    public var data: Data { fatalError() }
}

extension ForEach: View where Content: View {
    public var body: Never { fatalError() }
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content)
    where ID == Data.Element.ID, Data.Element: Identifiable {}
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content)
    {}
}

@available(iOS 13.0, macOS 10.15, *)
public struct Section<Parent: View, Content: View, Footer: View>: View {
    public var body: Never { fatalError() }
}

extension Section where Parent == Text, Footer == EmptyView {
    public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) {}
    @_disfavoredOverload public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {}
}

extension Section where Parent == EmptyView, Footer == EmptyView {
    public init(@ViewBuilder content: () -> Content) {}
}

extension Section where Parent == EmptyView {
    public init(@ViewBuilder content: () -> Content, @ViewBuilder footer: () -> Footer) {}
}

@available(iOS 13.0, macOS 10.15, *)
public struct Form<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

@available(iOS 16.0, macOS 13.0, *)
public struct NavigationStack<Root: View>: View {
    public init(@ViewBuilder root: () -> Root) {}
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, *)
public struct NavigationLink<Label: View, Destination: View>: View {
    public var body: Never { fatalError() }
}

extension NavigationLink where Label == Text {
    public init(_ titleKey: LocalizedStringKey, @ViewBuilder destination: () -> Destination) {}
}

@available(iOS 13.0, macOS 10.15, *)
public struct TabView<SelectionValue: Hashable, Content: View>: View {
    public var body: Never { fatalError() }
}

extension TabView where SelectionValue == Int {
    public init(@ViewBuilder content: () -> Content) {}
}

// MARK: Controls

@available(iOS 15.0, macOS 12.0, *)
public struct ButtonRole: Equatable, Sendable {
    public static let destructive = ButtonRole()
    public static let cancel = ButtonRole()
}

@available(iOS 13.0, macOS 10.15, *)
public struct Button<Label: View>: View {
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    public var body: Never { fatalError() }
}

extension Button where Label == Text {
    public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {}
    @_disfavoredOverload public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
    @available(iOS 15.0, macOS 12.0, *)
    public init(_ titleKey: LocalizedStringKey, role: ButtonRole?, action: @escaping @MainActor () -> Void) {}
}

@available(iOS 13.0, macOS 10.15, *)
public struct Toggle<Label: View>: View {
    public var body: Never { fatalError() }
}

extension Toggle where Label == Text {
    public init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) {}
    @_disfavoredOverload public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {}
}

@available(iOS 13.0, macOS 10.15, *)
public struct Picker<Label: View, SelectionValue: Hashable, Content: View>: View {
    public var body: Never { fatalError() }
}

extension Picker where Label == Text {
    public init(_ titleKey: LocalizedStringKey, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content)
    {}
}

@available(iOS 13.0, macOS 10.15, *)
public struct Stepper<Label: View>: View {
    public var body: Never { fatalError() }
}

extension Stepper where Label == Text {
    public init<V: Strideable>(
        _ titleKey: LocalizedStringKey, value: Binding<V>, in bounds: ClosedRange<V>, step: V.Stride = 1,
        onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) {}
}

@available(iOS 14.0, macOS 11.0, *)
public struct ProgressView<Label: View, CurrentValueLabel: View>: View {
    public var body: Never { fatalError() }
}

extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) {}
}

@available(iOS 13.0, macOS 10.15, *)
public struct SecureField<Label: View>: View {
    public var body: Never { fatalError() }
}

extension SecureField where Label == Text {
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}
}

/// CoreTransferable's protocol, as far as `ShareLink` needs it.
@available(iOS 16.0, macOS 13.0, *)
public protocol Transferable {}
@available(iOS 16.0, macOS 13.0, *)
extension String: Transferable {}

@available(iOS 16.0, macOS 13.0, *)
public struct ShareLink: View {
    public init<I: Transferable>(_ titleKey: LocalizedStringKey, item: I) {}
    public var body: Never { fatalError() }
}

// MARK: State

@propertyWrapper @dynamicMemberLookup
@available(iOS 13.0, macOS 10.15, *)
public struct Binding<Value> {
    /// Since the iOS 18 SDK the closures are `@isolated(any)`: formed in a view, they keep its
    /// main actor.
    public init(
        get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void
    ) {}
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set { fatalError() }
    }
    public var projectedValue: Binding<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError()
    }
}

extension Binding: Sendable where Value: Sendable {}

@available(iOS 13.0, macOS 10.15, *)
public protocol DynamicProperty {}

@propertyWrapper
@available(iOS 13.0, macOS 10.15, *)
public struct State<Value>: DynamicProperty {
    public init(wrappedValue value: Value) {}
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set { fatalError() }
    }
    public var projectedValue: Binding<Value> { fatalError() }
}

@available(iOS 14.0, macOS 11.0, *)
public enum ScenePhase: Comparable, Hashable, Sendable {
    case background, inactive, active
}

@available(iOS 13.0, macOS 10.15, *)
public struct EnvironmentValues {
    public var scenePhase: ScenePhase { fatalError() }
}

@propertyWrapper
@available(iOS 13.0, macOS 10.15, *)
public struct Environment<Value>: DynamicProperty {
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    public var wrappedValue: Value { fatalError() }
}

// MARK: Styles

@available(iOS 13.0, macOS 10.15, *)
public struct Font: Hashable, Sendable {
    public enum Weight: Hashable, Sendable { case regular, semibold, bold }
    public enum Design: Hashable, Sendable { case `default`, monospaced, rounded }
    public static let body = Font()
    public static let title2 = Font()
    public static let caption = Font()
    public static let footnote = Font()
    public static func system(size: CGFloat, weight: Weight? = nil, design: Design? = nil) -> Font { Font() }
    public func bold() -> Font { self }
    public func monospaced() -> Font { self }
}

@available(iOS 13.0, macOS 10.15, *)
public protocol ShapeStyle: Sendable {}

@available(iOS 13.0, macOS 10.15, *)
public struct Color: ShapeStyle, Hashable, View {
    nonisolated public static let green = Color()
    nonisolated public static let orange = Color()
    nonisolated public static let red = Color()
    nonisolated public static let gray = Color()
    public var body: Never { fatalError() }
}

@available(iOS 15.0, macOS 12.0, *)
public struct HierarchicalShapeStyle: ShapeStyle {
    public static let secondary = HierarchicalShapeStyle()
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    public static var secondary: HierarchicalShapeStyle { .secondary }
}

@available(iOS 14.0, macOS 11.0, *)
public struct AccessibilityChildBehavior: Hashable, Sendable {
    public static let ignore = AccessibilityChildBehavior()
    public static let combine = AccessibilityChildBehavior()
    public static let contain = AccessibilityChildBehavior()
}

@available(iOS 15.0, macOS 12.0, *)
public enum Visibility: Hashable, Sendable { case automatic, visible, hidden }
@available(iOS 15.0, macOS 12.0, *)
public enum HorizontalEdge: Hashable, Sendable { case leading, trailing }

@available(iOS 13.0, macOS 10.15, *)
public enum Edge: Int8, Sendable {
    case top, leading, bottom, trailing
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let all = Set(rawValue: 15)
    }
}

// MARK: Modifiers

extension View {
    @available(iOS 13.0, macOS 10.15, *)
    public func font(_ font: Font?) -> ModifiedView<Self> { fatalError() }
    @available(iOS 15.0, macOS 12.0, *)
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> ModifiedView<Self> { fatalError() }
    @available(iOS 15.0, macOS 12.0, *)
    public func tint(_ tint: Color?) -> ModifiedView<Self> { fatalError() }
    @available(iOS 13.0, macOS 10.15, *)
    public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> ModifiedView<Self> { fatalError() }
    @available(iOS 13.0, macOS 10.15, *)
    public func disabled(_ disabled: Bool) -> ModifiedView<Self> { fatalError() }
    @available(iOS 13.0, macOS 10.15, *)
    public func tag<V: Hashable>(_ tag: V) -> ModifiedView<Self> { fatalError() }
    @available(iOS 14.0, macOS 11.0, *)
    public func accessibilityHidden(_ hidden: Bool) -> ModifiedView<Self> { fatalError() }
    @available(iOS 14.0, macOS 11.0, *)
    public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> ModifiedView<Self> {
        fatalError()
    }
    @available(iOS 14.0, macOS 11.0, *)
    public func accessibilityLabel<S: StringProtocol>(_ label: S) -> ModifiedView<Self> { fatalError() }
    @available(iOS 14.0, macOS 11.0, *)
    public func accessibilityHint(_ hintKey: LocalizedStringKey) -> ModifiedView<Self> { fatalError() }
    @available(iOS 14.0, macOS 11.0, *)
    public func navigationTitle(_ titleKey: LocalizedStringKey) -> ModifiedView<Self> { fatalError() }
    @available(iOS 13.0, macOS 10.15, *)
    public func onAppear(perform action: (() -> Void)? = nil) -> ModifiedView<Self> { fatalError() }
    @available(iOS 15.0, macOS 12.0, *)
    public func task(priority: TaskPriority = .userInitiated, _ action: @escaping @Sendable () async -> Void)
        -> ModifiedView<Self>
    { fatalError() }
    @available(iOS 17.0, macOS 14.0, *)
    public func onChange<V: Equatable>(
        of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
    ) -> ModifiedView<Self> { fatalError() }
    @available(iOS 13.0, macOS 10.15, *)
    public func tabItem<V: View>(@ViewBuilder _ label: () -> V) -> ModifiedView<Self> { fatalError() }
    @available(iOS 15.0, macOS 12.0, *)
    public func swipeActions<T: View>(
        edge: HorizontalEdge = .trailing, allowsFullSwipe: Bool = true, @ViewBuilder content: () -> T
    ) -> ModifiedView<Self> { fatalError() }
    @available(iOS 14.0, macOS 11.0, *)
    public func onOpenURL(perform action: @escaping (URL) -> Void) -> ModifiedView<Self> { fatalError() }
    @available(iOS 13.0, macOS 10.15, *)
    public func sheet<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> ModifiedView<Self> { fatalError() }
    @available(iOS 15.0, macOS 12.0, *)
    public func confirmationDialog<A: View>(
        _ titleKey: LocalizedStringKey, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic,
        @ViewBuilder actions: () -> A
    ) -> ModifiedView<Self> { fatalError() }
}

// MARK: Apps and scenes

@available(iOS 14.0, macOS 11.0, *)
@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: Scene {}

@available(iOS 14.0, macOS 11.0, *)
@resultBuilder
public struct SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
    public static func buildExpression<Content: Scene>(_ content: Content) -> Content { content }
}

@available(iOS 14.0, macOS 11.0, *)
public struct WindowGroup<Content: View>: Scene {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

@available(iOS 14.0, macOS 11.0, *)
@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    @MainActor @preconcurrency init()
}

extension App {
    @MainActor @preconcurrency public static func main() { fatalError() }
}

// MARK: Foundation's Apple-only members the app uses
// Linux's Foundation has no security-scoped URLs; Apple's Foundation declares them on `URL`
// (iOS 8). Declared here, where the app's files that use them import SwiftUI.

@available(iOS 8.0, macOS 10.7, *)
extension URL {
    public func startAccessingSecurityScopedResource() -> Bool { fatalError() }
    public func stopAccessingSecurityScopedResource() { fatalError() }
}
