import HealthProbeArchive

/// How an anomaly's evidence keys read to people: the faces' words, not the archive's.
extension EvidenceText {
    /// `lossPercent` → `Loss percent`, `dayUTC` → `Day UTC`: an evidence key as people read it.
    public static func words(_ key: String) -> String {
        var words: [String] = []
        var current = ""
        let characters = Array(key)
        for (index, character) in characters.enumerated() {
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let startsWord =
                character.isUppercase && !current.isEmpty
                && (!(current.last?.isUppercase ?? false) || (next?.isLowercase ?? false))
            if startsWord {
                words.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        let lowered = words.map { word in word.allSatisfy(\.isUppercase) ? word : word.lowercased() }
        return sentence(lowered.joined(separator: " "))
    }
}
