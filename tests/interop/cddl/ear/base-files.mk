EAR_BASE_FRAGS += ear.cddl
EAR_BASE_FRAGS += ear-appraisal.cddl

EAR_BASE_EXAMPLES += examples/ear-cbor-1.diag
EAR_BASE_EXAMPLES += examples/ear-json-1.diag
EAR_BASE_EXAMPLES += examples/ear-json-2.diag
