EAR_EXT_VERAISON_FRAGS += ear.cddl
EAR_EXT_VERAISON_FRAGS += ear-appraisal.cddl
EAR_EXT_VERAISON_FRAGS += ext-veraison.cddl

EAR_EXT_VERAISON_EXAMPLES += examples/ext-veraison-cbor-1.diag
EAR_EXT_VERAISON_EXAMPLES += examples/ext-veraison-json-1.diag
EAR_EXT_VERAISON_EXAMPLES += examples/ext-veraison-json-2.diag
