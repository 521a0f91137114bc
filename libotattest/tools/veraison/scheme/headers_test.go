// SPDX-License-Identifier: MIT

package scheme

// The numbers in consts.go and refusal.go against libotattest's headers,
// the one definition of the format: a header change that this scheme
// does not follow fails here.

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/veraison/eat"
)

const includeDir = "../../../include/otattest/"

func header(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(includeDir + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// define returns a #define's value text (up to a comment).
func define(t *testing.T, text, name string) string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^#define ` + name + `\s+("[^"]*"|[^/\n]+)`)
	m := re.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("%s is not defined", name)
	}
	return strings.TrimSpace(m[1])
}

func defineInt(t *testing.T, text, name string) int64 {
	t.Helper()
	v := strings.TrimRight(define(t, text, name), "uUlL")
	v = strings.Trim(v, "()")
	n, err := strconv.ParseInt(v, 0, 64)
	if err != nil {
		t.Fatalf("%s = %q is not a number", name, v)
	}
	return n
}

func TestConstsMatchEvidenceHeader(t *testing.T) {
	h := header(t, "evidence.h")
	for name, want := range map[string]int64{
		"OTA_CLAIM_NONCE": ClaimNonce, "OTA_CLAIM_UEID": ClaimUEID, "OTA_CLAIM_OEMID": ClaimOEMID,
		"OTA_CLAIM_OEMBOOT": ClaimOEMBoot, "OTA_CLAIM_DBGSTAT": ClaimDbgStat,
		"OTA_CLAIM_EAT_PROFILE": ClaimEATProfile, "OTA_CLAIM_MEASUREMENTS": ClaimMeasurements,
		"OTA_CLAIM_MEASRES": ClaimMeasRes, "OTA_CLAIM_PRIVATE_BASE": claimPrivateBase,
		"OTA_ACLAIM_STAGE": AttemptStage, "OTA_ACLAIM_SLOT": AttemptSlot, "OTA_ACLAIM_STATUS": AttemptStatus,
		"OTA_ACLAIM_SIG_SCHEME": AttemptSigScheme, "OTA_ACLAIM_TAG_KEY_VERSION": AttemptTagKeyVersion,
		"OTA_ACLAIM_FLAGS": AttemptFlags, "OTA_ACLAIM_VERIFY_TIME_NS": AttemptVerifyTimeNs,
		"OTA_ACLAIM_COMPONENT": AttemptComponent, "OTA_ACLAIM_PATH_REASON": AttemptPathReason,
		"OTA_ACLAIM_USAGE_FLAGS": AttemptUsageFlags, "OTA_MC_ID": MCID, "OTA_MC_DIGEST": MCDigest,
		"OTA_MC_AUTHORITIES": MCAuthorities, "OTA_CF_MEASURED_COMPONENT": CFMeasuredComponent,
		"OTA_MC_ALG_SHA256": MCAlgSHA256, "OTA_MC_VERSION_SCHEME": MCVersionScheme,
		"OTA_MEASRES_SUCCESS": MeasResSuccess, "OTA_MEASRES_FAIL": MeasResFail,
		"OTA_MEASRES_NOT_RUN": MeasResNotRun, "OTA_OEMID_BYTES": OEMIDBytes,
		"OTA_UEID_TYPE_RAND": eat.UEIDTypeRAND,
	} {
		if got := defineInt(t, h, name); got != want {
			t.Errorf("%s is %d in evidence.h, %d here", name, got, want)
		}
	}
	// Private claim n is OTA_CLAIM_PRIVATE(n).
	for name, key := range map[string]int64{"RECORD_DIGEST": ClaimRecordDigest, "MIN_SVN": ClaimMinSVN,
		"EPOCH": ClaimEpoch, "LIFECYCLE": ClaimLifecycle, "TAG_KEY_VERSION": ClaimTagKeyVersion,
		"RESET_REASON": ClaimResetReason, "RECORD_FLAGS": ClaimRecordFlags,
		"CHAIN_MAX_SVN": ClaimChainMaxSVN, "FLOORS": ClaimFloors, "GENERATION": ClaimGeneration,
		"ATTEMPTS": ClaimAttempts, "UPDATE_STATE": ClaimUpdateState, "PRIMARY_SLOT": ClaimPrimarySlot,
		"BOOTED_SLOT": ClaimBootedSlot, "PENDING_UPDATE": ClaimPendingUpdate,
		"REVOCATION_SEQ": ClaimRevocationSeq, "TRIAL_BOOTS": ClaimTrialBoots, "REVERT": ClaimRevert} {
		v := define(t, h, "OTA_CLAIM_"+name)
		m := regexp.MustCompile(`^OTA_CLAIM_PRIVATE\((\d+)\)`).FindStringSubmatch(v)
		if m == nil {
			t.Fatalf("OTA_CLAIM_%s = %q", name, v)
		}
		n, _ := strconv.ParseInt(m[1], 10, 64)
		if claimPrivate(n) != key {
			t.Errorf("OTA_CLAIM_%s is private claim %s, here %d", name, m[1], key)
		}
	}
	for name, want := range map[string]string{"OTA_EAT_PROFILE": EATProfile, "OTA_EAT_PROFILE_V1": EATProfileV1,
		"OTA_MEASRES_SYSTEM_PREFIX": MeasResSystemPrefix, "OTA_MC_NAME_ROM": MCNameROM,
		"OTA_CERT_CN_IDENTITY": CNIdentity, "OTA_CERT_CN_ALIAS": CNAlias} {
		if got, _ := strconv.Unquote(define(t, h, name)); got != want {
			t.Errorf("%s is %q in evidence.h, %q here", name, got, want)
		}
	}
	if !strings.Contains(h, "0x00, 0x66, 0x57, 0x68, 0x00, 0xdb, 0xde, 0xdb") ||
		!strings.Contains(h, "0x39, 0xfe, 0x77, 0x80, 0xec, 0x8f, 0x5b, 0xc0") {
		t.Error("OTA_OEMID_INIT is not the OEMID here")
	}
}

// The generated table holds every row refusal.h has (the generator's
// X-macro cannot skip one; this checks the generator ran on the header).
func TestRefusalTableIsTheHeaders(t *testing.T) {
	rows := regexp.MustCompile(`X\((\w+), \w+, \w+\)`).FindAllStringSubmatch(header(t, "refusal.h"), -1)
	if len(rows) != len(Refusals) {
		t.Fatalf("refusal.h has %d rows, the scheme %d: run make veraison-tools", len(rows), len(Refusals))
	}
	for _, r := range rows {
		if _, ok := Refusals[r[1]]; !ok {
			t.Errorf("refusal.h has %s, the scheme does not", r[1])
		}
	}
	if _, ok := Refusals[StatusNotInReferenceValues]; !ok {
		t.Errorf("%s has no refusal row", StatusNotInReferenceValues)
	}
}
