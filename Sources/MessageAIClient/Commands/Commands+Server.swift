import Foundation

/// /server: where the client is connected and how the connection is secured.
enum ServerCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/server", "/server", "show the server address, connection state, TLS version, cipher and certificate fingerprint",
                    login: false, run: server),
    ]

    static func server(_ inv: Invocation) {
        let c = inv.client
        let link = c.link
        let address = link.address.description
        var fields: [String: Any] = ["address": address, "connection": c.connectionLabel]
        var plain = "\(address) (\(c.connectionLabel))"
        if link.settings.addresses.count > 1 {
            // Several nodes: which one this is, and the others it fails over to.
            fields["addresses"] = link.settings.addresses.map(\.description)
            plain += ", one of \(link.settings.addresses.map(\.description).joined(separator: ", "))"
        }
        if link.settings.tls.plaintext {
            fields["tls"] = false
            plain += ", PLAINTEXT: no encryption (--plaintext)"
        } else if let t = link.tlsInfo {
            fields.merge(["tls": true, "tls_version": t.version, "cipher": t.cipher, "fingerprint": t.fingerprint,
                          "alpn": t.alpn ?? "", "trusted_by": t.trustedBy]) { _, b in b }
            plain += ", \(t.version) \(t.cipher), certificate SHA-256 \(t.fingerprint), trusted by \(t.trustedBy)"
        } else {
            fields["tls"] = true
            plain += ", TLS (not connected now)"
            if !link.lastError.isEmpty { plain += "; last error: \(link.lastError)" }
        }
        if let w = link.welcome, !w.server.isEmpty { fields["server"] = w.server; plain += ", \(w.server)" }
        inv.succeed("server", fields, plain: plain)
    }
}
