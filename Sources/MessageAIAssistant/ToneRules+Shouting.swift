import Foundation

/// Shouting: whole sentences in capitals. Acronyms (CI, PR, EOD, TLS) and one enthusiastic
/// word ("This is HUGE") are not shouting.
extension ToneRules {
    static let acronyms: Set<String> = ["CI", "CD", "PR", "PRS", "EOD", "EOW", "COB", "TLS", "SSL", "API", "APIS", "UI", "UX", "QA",
                                        "DB", "SQL", "URL", "HTTP", "HTTPS", "JSON", "CSV", "PDF", "FYI", "ASAP", "LGTM", "OK", "ETA",
                                        "UTC", "PST", "CET", "GMT", "ET", "PT", "AWS", "GCP", "CPU", "RAM", "SLA", "SLO", "KPI", "OKR",
                                        "MVP", "PM", "AM", "IMO", "IMHO", "TBD", "TODO", "WIP", "RFC", "SDK", "CLI", "DNS", "VPN", "SSO",
                                        "iOS", "OS", "QA", "Q1", "Q2", "Q3", "Q4", "OOO", "PTO", "HR", "CEO", "CTO", "VP", "BTW", "TL;DR",
                                        "TLDR", "RC", "GA", "SRE", "P0", "P1", "P2", "NPS", "ROI", "US", "EU", "UK", "JS", "TS", "CSS",
                                        "HTML", "SSH", "TCP", "UDP", "IP", "ID", "IDS", "LLM", "AI", "ML", "OTP", "MFA", "K8S", "GPU", "NDA"]

    static func shouting(_ text: String) -> Flag? {
        for s in Sentences.split(text) {
            let t = Tokenizer.tokens(s).filter { $0.raw.contains { $0.isLetter } }
            guard t.count >= 2 else { continue }
            let caps = t.filter { $0.isAllCaps && !acronyms.contains($0.raw.uppercased()) && !$0.raw.contains { $0.isNumber } }
            let lowerWords = t.filter { $0.raw != $0.raw.uppercased() }
            // Two or more shouted words making up most of the sentence.
            if caps.count >= 2 && caps.count * 2 >= t.count && lowerWords.count <= caps.count {
                return Flag(.shouting, "'\(s.trimmingCharacters(in: .whitespaces))' is in capitals and reads as shouting: write it in normal case")
            }
        }
        return nil
    }
}
