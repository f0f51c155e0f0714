import AppleHealthExport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

@Suite("Element batches between import threads")
struct ElementBatchTests {
    static func element(_ name: String) -> AppleExportElement {
        .unknown(GenericElement(name: name, attributes: [AppleExportAttribute(name: "n", value: name + " value text")]))
    }

    @Test func drainingHandsOverEveryElementInOrderAndEmptiesTheBatch() {
        let batch = ElementBatch(capacity: 3)
        for name in ["FirstElementName", "SecondElementName", "ThirdElementName"] { batch.append(Self.element(name)) }
        #expect(batch.isFull)
        var names: [String] = []
        batch.drain { names.append($0.elementName) }
        #expect(names == ["FirstElementName", "SecondElementName", "ThirdElementName"])
        #expect(batch.isEmpty)
    }

    @Test func aFailureWhileDrainingStillEmptiesTheBatch() {
        struct Stop: Error {}
        let batch = ElementBatch(capacity: 3)
        for name in ["FirstElementName", "SecondElementName", "ThirdElementName"] { batch.append(Self.element(name)) }
        var seen = 0
        #expect(throws: Stop.self) {
            try batch.drain { _ in
                seen += 1
                if seen == 2 { throw Stop() }
            }
        }
        #expect(seen == 2)
        #expect(batch.isEmpty)
    }
}
