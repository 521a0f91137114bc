#!/usr/bin/python3
"""crl_make.py EVIDENCE CA_PEM CA_KEY KIND OUT

Writes a PEM CRL of the evidence's CA (Python's cryptography, a CRL
writer nobody in this project wrote) for the revocation cases of
veraison-agree.sh, read by otattest-verify --crl and otattest-veraison
appraise --crl alike. KIND:
  revoked    lists the identity certificate of the evidence's x5chain
  other      lists another serial
  expired    lists another serial, its nextUpdate past
  delta      a delta CRL (deltaCRLIndicator, base CRL 1) listing the identity
  full+delta a full CRL listing another serial, then that delta, one file
  idp        listing the identity, with an issuing distribution point
"""
import datetime
import sys

import cbor2
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization



def crl(ca, key, serial, number, days, *extensions):
    now = datetime.datetime.now(datetime.timezone.utc)
    b = (x509.CertificateRevocationListBuilder()
         .issuer_name(ca.subject)
         .last_update(now - datetime.timedelta(days=2 if days < 0 else 1))
         .next_update(now + datetime.timedelta(days=days))
         .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(
             ca.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value), False)
         .add_extension(x509.CRLNumber(number), False)
         .add_revoked_certificate(x509.RevokedCertificateBuilder()
                                  .serial_number(serial)
                                  .revocation_date(now - datetime.timedelta(days=1))
                                  .build()))
    for ext, critical in extensions:
        b = b.add_extension(ext, critical)
    return b.sign(key, hashes.SHA256()).public_bytes(serialization.Encoding.PEM)


def main():
    evidence, ca_pem, ca_key, kind, out = sys.argv[1:]
    tag = cbor2.loads(open(evidence, "rb").read())
    identity = x509.load_der_x509_certificate(tag.value[1][33][1])
    ca = x509.load_pem_x509_certificate(open(ca_pem, "rb").read())
    key = serialization.load_pem_private_key(open(ca_key, "rb").read(), None)
    other = identity.serial_number ^ 1
    delta = (x509.DeltaCRLIndicator(1), True)
    if kind == "revoked":
        pem = crl(ca, key, identity.serial_number, 1, 7)
    elif kind == "other":
        pem = crl(ca, key, other, 1, 7)
    elif kind == "expired":
        pem = crl(ca, key, other, 1, -1)
    elif kind == "delta":
        pem = crl(ca, key, identity.serial_number, 2, 7, delta)
    elif kind == "full+delta":
        pem = crl(ca, key, other, 1, 7) + crl(ca, key, identity.serial_number, 2, 7, delta)
    elif kind == "idp":
        idp = x509.IssuingDistributionPoint(None, None, True, False, None, False, False)
        pem = crl(ca, key, identity.serial_number, 1, 7, (idp, True))
    else:
        sys.exit(f"crl_make.py: unknown kind {kind}")
    open(out, "wb").write(pem)


if __name__ == "__main__":
    main()
