COMID_FRAGS := concise-mid-tag.cddl
COMID_FRAGS += attest-key-triple-record.cddl
COMID_FRAGS += class-id-type-choice.cddl
COMID_FRAGS += class-map.cddl
COMID_FRAGS += comid-entity-map.cddl
COMID_FRAGS += comid-role-type-choice.cddl
COMID_FRAGS += conditional-endorsement-series-triple-record.cddl
COMID_FRAGS += conditional-series-record.cddl
COMID_FRAGS += cose-key.cddl
COMID_FRAGS += cose-label-and-value.cddl
COMID_FRAGS += coswid-triple-record.cddl
COMID_FRAGS += crypto-key-type-choice.cddl
COMID_FRAGS += trust-dependency-triple-record.cddl
COMID_FRAGS += domain-membership-triple-record.cddl
COMID_FRAGS += conditional-endorsement-triple-record.cddl
COMID_FRAGS += domain-type.cddl
COMID_FRAGS += endorsed-triple-record.cddl
COMID_FRAGS += entity-map.cddl
COMID_FRAGS += entity-name-type-choice.cddl
COMID_FRAGS += environment-map.cddl
COMID_FRAGS += flags-map.cddl
COMID_FRAGS += group-id-type-choice.cddl
COMID_FRAGS += identity-triple-record.cddl
COMID_FRAGS += instance-id-type-choice.cddl
COMID_FRAGS += ip-addr-type-choice.cddl
COMID_FRAGS += int-range-type-choice.cddl
COMID_FRAGS += linked-tag-map.cddl
COMID_FRAGS += mac-addr-type-choice.cddl
COMID_FRAGS += measured-element-type-choice.cddl
COMID_FRAGS += measurement-map.cddl
COMID_FRAGS += measurement-values-map.cddl
COMID_FRAGS += non-empty.cddl
COMID_FRAGS += oid.cddl
COMID_FRAGS += raw-value.cddl
COMID_FRAGS += tagged-masked-raw-value.cddl
COMID_FRAGS += reference-triple-record.cddl
COMID_FRAGS += stateful-environment-record.cddl
COMID_FRAGS += svn-type-choice.cddl
COMID_FRAGS += tag-id-type-choice.cddl
COMID_FRAGS += tag-identity-map.cddl
COMID_FRAGS += tag-rel-type-choice.cddl
COMID_FRAGS += tag-version-type.cddl
COMID_FRAGS += tagged-bytes.cddl
COMID_FRAGS += triples-map.cddl
COMID_FRAGS += ueid.cddl
COMID_FRAGS += uuid.cddl
COMID_FRAGS += version-map.cddl
COMID_FRAGS += digest.cddl
COMID_FRAGS += integrity-registers.cddl
# Used in examples only
COMID_FRAGS += psa-sac-ext.cddl

COMID_IMPORTS += eatmc=measured-component

COMID_EXAMPLES := $(wildcard examples/comid-*.diag)

COTL_FRAGS := concise-tl-tag.cddl
COTL_FRAGS += validity-map.cddl
COTL_FRAGS += version-map.cddl
COTL_FRAGS += tag-id-type-choice.cddl
COTL_FRAGS += tag-identity-map.cddl
COTL_FRAGS += uuid.cddl
COTL_FRAGS += tag-version-type.cddl

COTL_IMPORTS += eatmc=measured-component

COTL_EXAMPLES := $(wildcard examples/cotl-*.diag)

CORIM_FRAGS := corim.cddl
CORIM_FRAGS += concise-tl-tag.cddl
CORIM_FRAGS += concise-tag-type-choice.cddl
CORIM_FRAGS += corim-entity-map.cddl
CORIM_FRAGS += corim-id-type-choice.cddl
CORIM_FRAGS += corim-locator-map.cddl
CORIM_FRAGS += corim-map.cddl
CORIM_FRAGS += corim-meta-map.cddl
CORIM_FRAGS += corim-role-type-choice.cddl
CORIM_FRAGS += corim-signer-map.cddl
CORIM_FRAGS += cose-sign1-corim.cddl
CORIM_FRAGS += profile-type-choice.cddl
CORIM_FRAGS += cwt-claims.cddl
CORIM_FRAGS += protected-corim-header-map.cddl
CORIM_FRAGS += signed-corim.cddl
CORIM_FRAGS += tagged-concise-swid-tag.cddl

CORIM_IMPORTS += eatmc=measured-component

CORIM_FRAGS += tagged-concise-mid-tag.cddl
CORIM_FRAGS += tagged-concise-tl-tag.cddl
CORIM_FRAGS += tagged-unsigned-corim-map.cddl
CORIM_FRAGS += unprotected-corim-header-map.cddl
CORIM_FRAGS += validity-map.cddl

CORIM_FRAGS += $(COMID_FRAGS)

CORIM_EXAMPLES := $(wildcard examples/corim-*.diag)

INTREP_FRAGS += intrep-acs.cddl
INTREP_FRAGS += intrep-ae.cddl
INTREP_FRAGS += intrep-ar.cddl
INTREP_FRAGS += intrep-ars.cddl
INTREP_FRAGS += intrep-ect.cddl
INTREP_FRAGS += intrep-ect-evidence-addition.cddl
INTREP_FRAGS += intrep-e-ect.cddl
INTREP_FRAGS += intrep-m-ect.cddl
INTREP_FRAGS += intrep-k-ect.cddl
INTREP_FRAGS += intrep-t-ect.cddl
INTREP_FRAGS += intrep-ect-common.cddl
INTREP_FRAGS += intrep-ev.cddl
INTREP_FRAGS += intrep-evs.cddl
INTREP_FRAGS += intrep-domain-item.cddl
INTREP_FRAGS += intrep-domain-mem.cddl
INTREP_FRAGS += intrep-trust-dep.cddl
INTREP_FRAGS += intrep-policy.cddl
INTREP_FRAGS += intrep-rv.cddl
INTREP_FRAGS += intrep-ect-refval-condition.cddl
INTREP_FRAGS += intrep-ect-refval-addition.cddl
INTREP_FRAGS += intrep-ect-endval-condition.cddl
INTREP_FRAGS += intrep-ect-endval-addition.cddl
INTREP_FRAGS += intrep-ect-domain-condition.cddl
INTREP_FRAGS += intrep-ect-domain-addition.cddl
INTREP_FRAGS += intrep-ect-key-condition.cddl
INTREP_FRAGS += intrep-ect-key-addition.cddl
INTREP_FRAGS += intrep-ect-trust-dep-addition.cddl
INTREP_FRAGS += intrep-ect-trust-dep-condition.cddl
INTREP_FRAGS += intrep-trust-dep-item.cddl
INTREP_FRAGS += intrep-claims-map.cddl
INTREP_FRAGS += intrep-key.cddl
INTREP_FRAGS += stagingarea.cddl
# deps
INTREP_FRAGS += non-empty.cddl
INTREP_FRAGS += environment-map.cddl
INTREP_FRAGS += class-map.cddl
INTREP_FRAGS += measurement-values-map.cddl
INTREP_FRAGS += version-map.cddl
INTREP_FRAGS += svn-type-choice.cddl
INTREP_FRAGS += digest.cddl
INTREP_FRAGS += flags-map.cddl
INTREP_FRAGS += raw-value.cddl
INTREP_FRAGS += tagged-masked-raw-value.cddl
INTREP_FRAGS += tagged-bytes.cddl
INTREP_FRAGS += int-range-type-choice.cddl
INTREP_FRAGS += mac-addr-type-choice.cddl
INTREP_FRAGS += ip-addr-type-choice.cddl
INTREP_FRAGS += ueid.cddl
INTREP_FRAGS += uuid.cddl
INTREP_FRAGS += integrity-registers.cddl
INTREP_FRAGS += crypto-key-type-choice.cddl
INTREP_FRAGS += profile-type-choice.cddl
INTREP_FRAGS += cose-key.cddl
INTREP_FRAGS += cose-label-and-value.cddl
INTREP_FRAGS += class-id-type-choice.cddl
INTREP_FRAGS += oid.cddl
INTREP_FRAGS += domain-type.cddl
INTREP_FRAGS += measured-element-type-choice.cddl
INTREP_FRAGS += instance-id-type-choice.cddl
INTREP_FRAGS += psa-sac-ext.cddl

INTREP_IMPORTS += eatmc=measured-component

INTREP_ACS_FRAGS := intrep-acs-start.cddl
INTREP_ACS_FRAGS += $(INTREP_FRAGS)
INTREP_ACS_IMPORTS += $(INTREP_IMPORTS)
INTREP_ACS_EXAMPLES := $(wildcard examples/intrep-acs*.diag)

INTREP_REL_FRAGS := intrep-rel-start.cddl
INTREP_REL_FRAGS += $(INTREP_FRAGS)
INTREP_REL_IMPORTS += $(INTREP_IMPORTS)
INTREP_REL_EXAMPLES := $(wildcard examples/intrep-rel*.diag)
