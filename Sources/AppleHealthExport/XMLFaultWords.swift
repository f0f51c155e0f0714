import CLibXML2

/// A well-formedness error in our own words, by libxml2's error code: the kind of fault and
/// where it is (line, column), never the file's text — libxml2's messages repeat element names,
/// entity names and values, which may be a person's name or a health value.
enum XMLFaultWords {
    static func words(code: Int32, column: Int32) -> String {
        let kind: String =
            switch code {
            case 4: "the document is empty"
            case 5: "there is more after the root element's end"
            case 6, 7, 8, 10, 11, 12: "a character reference that names no character XML allows"
            case 9: "a character XML does not allow"
            case 23: "an entity reference without its ';'"
            case 26, 27: "an entity reference other than XML's five"
            case 38: "a '<' inside an attribute's value"
            case 39, 40: "an attribute's value without its quotes"
            case 41: "an attribute without a value"
            case 42: "an attribute given twice on one element"
            case 65: "a space missing between two parts of a tag"
            case 68: "a tag without a name"
            case 73: "a tag not closed by '>'"
            case 74: "an element not closed"
            case 76: "an element closed by another element's end tag"
            case 77: "an element left open at the end"
            case 81: "bytes that are not the document's encoding"
            default: "XML that is not well-formed (libxml2's error \(code))"
            }
        return column > 0 ? "\(kind) (column \(column))" : kind
    }
}
