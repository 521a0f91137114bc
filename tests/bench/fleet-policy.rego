# The fleet's policy, `allowed_lifecycle = prod` in otattest-verify's
# policy file (docs/verifier.md), as a Veraison policy: make bench-fleet
# gives it to Veraison through its management API (createPolicy, then
# activate) instead of OTATTEST_POLICY. `evidence` is the otattest scheme's
# summary of the evidence (scheme.Summary, docs/veraison.md): `lifecycle`
# is enum ota_lifecycle, 2 = prod. A device in any other state gets the
# same hardware claim as the scheme gives VERIFY_LIFECYCLE_NOT_ALLOWED
# (96, contraindicated), in each submodule.
package policy

hardware = CONTRAINDICATED_HW {
	evidence.lifecycle != 2
}
