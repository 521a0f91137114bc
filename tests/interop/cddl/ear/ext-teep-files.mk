EAR_EXT_TEEP_FRAGS += ear.cddl
EAR_EXT_TEEP_FRAGS += ear-appraisal.cddl
EAR_EXT_TEEP_FRAGS += ext-teep.cddl
EAR_EXT_TEEP_FRAGS += generic-non-empty.cddl
EAR_EXT_TEEP_FRAGS += untagged-coswid.cddl

EAR_EXT_TEEP_EXAMPLES += examples/ext-teep-cbor-1.diag
EAR_EXT_TEEP_EXAMPLES += examples/ext-teep-json-1.diag
