"""TLS helpers for tests: a throwaway CA made with the `openssl` command, and the first bytes
of a real ClientHello (from Python's ssl module) to truncate."""
import os
import ssl
import subprocess


def openssl(*args, cwd):
    out = subprocess.run(["openssl", *args], cwd=cwd, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, f"openssl {' '.join(args)}: {out.stderr}"
    return out.stdout


class ThrowawayCA:
    """A root CA, an intermediate, and leaf certificates for 127.0.0.1 signed by the intermediate."""

    def __init__(self, directory):
        self.dir = str(directory)
        os.makedirs(self.dir, exist_ok=True)
        d = self.dir
        ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        openssl("req", "-x509", *ec, "-keyout", "root.key", "-out", "root.pem", "-days", "2",
                "-subj", "/CN=Throwaway Test Root", "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=d)
        openssl("req", *ec, "-keyout", "inter.key", "-out", "inter.csr", "-subj", "/CN=Throwaway Intermediate", cwd=d)
        with open(os.path.join(d, "inter.ext"), "w") as f:
            f.write("basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n")
        openssl("x509", "-req", "-in", "inter.csr", "-CA", "root.pem", "-CAkey", "root.key", "-CAcreateserial",
                "-out", "inter.pem", "-days", "2", "-extfile", "inter.ext", cwd=d)
        self.root = os.path.join(d, "root.pem")

    def leaf(self, name, san="IP:127.0.0.1,DNS:localhost"):
        """(chain path with leaf then intermediate, key path, fingerprint)."""
        d = self.dir
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", f"{name}.key",
                "-out", f"{name}.csr", "-subj", f"/CN={name}", cwd=d)
        with open(os.path.join(d, f"{name}.ext"), "w") as f:
            f.write(f"subjectAltName={san}\nextendedKeyUsage=serverAuth\n")
        openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "inter.pem", "-CAkey", "inter.key", "-CAcreateserial",
                "-out", f"{name}.pem", "-days", "2", "-extfile", f"{name}.ext", cwd=d)
        with open(os.path.join(d, f"{name}-chain.pem"), "w") as out:
            for part in (f"{name}.pem", "inter.pem"):
                with open(os.path.join(d, part)) as f:
                    out.write(f.read())
        return os.path.join(d, f"{name}-chain.pem"), os.path.join(d, f"{name}.key"), fingerprint(os.path.join(d, f"{name}.pem"))


def fingerprint(pem_path):
    out = openssl("x509", "-in", pem_path, "-noout", "-fingerprint", "-sha256", cwd=os.path.dirname(pem_path) or ".")
    return out.strip().split("=", 1)[1]


def client_hello():
    """The bytes a TLS client sends first (a full ClientHello record)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    obj = ctx.wrap_bio(incoming, outgoing, server_side=False)
    try:
        obj.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()
