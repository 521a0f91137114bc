// SPDX-License-Identifier: MIT

package scheme

// The claims set of evidence profile v2 (docs/evidence.md, "Claims set"),
// decoded into the fields a verifier judges. Every claim must be present
// once, none unknown, every value of its type and in range: evidence is
// hostile until the checks pass, and a claim this code does not know may
// mean something it cannot judge.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/veraison/eat"
)

// Component is one measured component (draft-ietf-rats-eat-measured-component).
type Component struct {
	Name        string
	HasVersion  bool
	SVN         uint32
	Digest      []byte
	Authorities [][]byte // root key id, then each delegate's
}

// Attempt is one verification attempt, its measres result and its attempt map.
type Attempt struct {
	Stage         uint32
	Slot          uint32
	Status        uint32
	Path          uint32
	Result        uint32
	SigScheme     uint32
	TagKeyVersion uint32
	Flags         uint32
	VerifyTimeNs  uint64
	PathReason    uint32 // enum ota_path_reason: why not the tag path
	UsageFlags    uint32 // the effective usage's OTA_CAP_*
	// Component of a refused attempt (its own map); a booted attempt's is
	// the measurements entry of its stage.
	Component *Component
}

// Booted reports whether the attempt is the image that runs, accepted.
func (a *Attempt) Booted() bool { return a.Flags&StageFlagBooted != 0 && a.Status == StatusOK }

// Depth is the delegation depth: the authorities after the root key.
func (a *Attempt) Depth() uint32 {
	if a.Component == nil || len(a.Component.Authorities) == 0 {
		return 0
	}
	return uint32(len(a.Component.Authorities) - 1)
}

// Claims is a decoded claims set.
type Claims struct {
	Nonce         []byte
	DeviceID      []byte
	OEMBoot       bool
	DbgStat       uint32
	ROMIdentity   []byte
	Components    []Component // measurements, in claim order: rom, then each booted stage
	Attempts      []Attempt
	RecordDigest  []byte
	MinSVN        uint32
	Epoch         uint32
	Lifecycle     uint32
	TagKeyVersion uint32
	ResetReason   uint32
	RecordFlags   uint32
	ChainMaxSVN   uint32
	FloorROMExt   uint32
	FloorBL0      uint32
	Generation    uint64
	Update        UpdateClaims
}

// UpdateClaims is struct ota_update_claims (evidence.h): claims 12..18 and
// reset-reason; the refused attempts are counted from the attempts, bit
// (stage - 1) * 2 + slot each. Pending is the runtime's word only.
type UpdateClaims struct {
	ResetReason, State, PrimarySlot, BootedSlot uint32
	RevocationSeq, RevocationSeqDevice          uint32
	TrialBoots, RevertReason, RevertedSlot      uint32
	RefusedCount, RefusedSlots                  uint32
	PendingStage, PendingSlot                   uint32
}

type claimsError struct{ msg string }

func (e *claimsError) Error() string { return e.msg }

func bad(format string, a ...any) error { return &claimsError{fmt.Sprintf(format, a...)} }

func bstr(v any, n int, what string) ([]byte, error) {
	b, ok := v.([]byte)
	if !ok || (n >= 0 && len(b) != n) {
		return nil, bad("%s is not a %d-byte string", what, n)
	}
	return b, nil
}

func u32(v any, limit uint32, what string) (uint32, error) {
	n, ok := asUint32(v)
	if !ok || n > limit {
		return 0, bad("%s is not an integer 0..%d", what, limit)
	}
	return n, nil
}

// decodeComponent reads a measured-component map (bstr .cbor mc).
func decodeComponent(raw any) (*Component, error) {
	b, ok := raw.([]byte)
	if !ok {
		return nil, bad("a measured component is not a byte string")
	}
	v, err := strictDecode(claimsDecMode, &componentLimits, b)
	if err != nil {
		return nil, bad("a measured component does not decode: %v", err)
	}
	m, ok := intMap(v)
	if !ok {
		return nil, bad("a measured component is not a map")
	}
	c := &Component{}
	id, ok := m[MCID].([]any)
	if !ok || len(id) < 1 || len(id) > 2 {
		return nil, bad("a measured component has no id")
	}
	if c.Name, ok = id[0].(string); !ok {
		return nil, bad("a measured component's name is not text")
	}
	if len(id) == 2 {
		ver, ok := id[1].([]any)
		if !ok || len(ver) != 2 {
			return nil, bad("%s: version is not [text, scheme]", c.Name)
		}
		s, ok1 := ver[0].(string)
		scheme, ok2 := asUint32(ver[1])
		if !ok1 || !ok2 || scheme != MCVersionScheme {
			return nil, bad("%s: version is not a multipartnumeric SVN", c.Name)
		}
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil || n > SVNLimit || strconv.FormatUint(n, 10) != s {
			return nil, bad("%s: version %q is not an SVN", c.Name, s)
		}
		c.HasVersion, c.SVN = true, uint32(n)
	}
	dig, ok := m[MCDigest].([]any)
	if !ok || len(dig) != 2 {
		return nil, bad("%s: no digest", c.Name)
	}
	if alg, ok := asUint32(dig[0]); !ok || alg != MCAlgSHA256 {
		return nil, bad("%s: digest is not SHA-256", c.Name)
	}
	if c.Digest, err = bstr(dig[1], 32, c.Name+" digest"); err != nil {
		return nil, err
	}
	keys := 2
	if auth, present := m[MCAuthorities]; present {
		keys++
		list, ok := auth.([]any)
		if !ok || len(list) < 1 || len(list) > MaxDelegationDepth+1 {
			return nil, bad("%s: authorities are not 1..3 key ids", c.Name)
		}
		for _, k := range list {
			id, err := bstr(k, KeyIDBytes, c.Name+" authority")
			if err != nil {
				return nil, err
			}
			c.Authorities = append(c.Authorities, id)
		}
	}
	if len(m) != keys {
		return nil, bad("%s: a measured component with fields this profile does not use", c.Name)
	}
	return c, nil
}

func stageByName(name string) uint32 {
	for s := uint32(StageROMExt); s <= StageBL0; s++ {
		if StageName(s) == name {
			return s
		}
	}
	return 0
}

func pathByName(name string) (uint32, bool) {
	for i, n := range pathNames {
		if n == name {
			return uint32(i), true
		}
	}
	return 0, false
}

// DecodeClaims reads a claims set (the COSE_Sign1 payload).
func DecodeClaims(payload []byte) (*Claims, error) {
	v, err := strictDecode(claimsDecMode, &claimsLimits, payload)
	if err != nil {
		return nil, bad("%v", err)
	}
	m, ok := intMap(v)
	if !ok {
		return nil, bad("the claims set is not a map with integer keys")
	}
	known := []int64{ClaimNonce, ClaimUEID, ClaimOEMID, ClaimOEMBoot, ClaimDbgStat, ClaimEATProfile,
		ClaimMeasurements, ClaimMeasRes, ClaimRecordDigest, ClaimMinSVN, ClaimEpoch, ClaimLifecycle,
		ClaimTagKeyVersion, ClaimResetReason, ClaimRecordFlags, ClaimChainMaxSVN, ClaimFloors,
		ClaimGeneration, ClaimAttempts, ClaimUpdateState, ClaimPrimarySlot, ClaimBootedSlot,
		ClaimPendingUpdate, ClaimRevocationSeq, ClaimTrialBoots, ClaimRevert}
	for _, k := range known {
		if _, ok := m[k]; !ok {
			return nil, bad("claim %d is missing", k)
		}
	}
	if len(m) != len(known) {
		return nil, bad("the claims set has a claim this profile does not define")
	}
	c := &Claims{}
	// eat_profile: a URI profile (a tstr, RFC 9711 section 4.3.2), read
	// with the eat library's Profile.
	text, ok := m[ClaimEATProfile].(string)
	var prof string
	if ok {
		if p, err := eat.NewProfile(text); err == nil && p.IsURI() {
			prof, _ = p.Get()
		}
	}
	if prof != EATProfile {
		if prof == EATProfileV1 {
			return nil, bad("profile %s is retired", EATProfileV1)
		}
		return nil, bad("eat_profile is not %s", EATProfile)
	}
	nonce, ok := m[ClaimNonce].([]byte)
	if !ok || len(nonce) < NonceMin || len(nonce) > NonceMax {
		return nil, bad("nonce is not 16..64 bytes")
	}
	c.Nonce = nonce
	ueid, err := bstr(m[ClaimUEID], 1+DeviceIDBytes, "ueid")
	if err != nil {
		return nil, err
	}
	// RFC 9711's UEID, as Veraison's eat library reads it: the RAND type
	// with the 16-byte device id (128 bits, the least it allows).
	if err := eat.UEID(ueid).Validate(); err != nil || ueid[0] != eat.UEIDTypeRAND {
		return nil, bad("ueid is not a RAND-type UEID")
	}
	c.DeviceID = ueid[1:]
	oemid, err := bstr(m[ClaimOEMID], OEMIDBytes, "oemid")
	if err != nil {
		return nil, err
	}
	if string(oemid) != string(OEMID) {
		return nil, bad("oemid is not otattest's")
	}
	if c.OEMBoot, ok = m[ClaimOEMBoot].(bool); !ok {
		return nil, bad("oemboot is not a boolean")
	}
	if c.DbgStat, err = u32(m[ClaimDbgStat], 4, "dbgstat"); err != nil {
		return nil, err
	}
	if c.RecordDigest, err = bstr(m[ClaimRecordDigest], 32, "record-digest"); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		key   int64
		out   *uint32
		limit uint32
		name  string
	}{
		{ClaimMinSVN, &c.MinSVN, SVNLimit, "min-svn"},
		{ClaimEpoch, &c.Epoch, 0xffffffff, "epoch"},
		{ClaimLifecycle, &c.Lifecycle, LCCount - 1, "lifecycle"},
		{ClaimTagKeyVersion, &c.TagKeyVersion, 0xffffffff, "tag-key-version"},
		{ClaimResetReason, &c.ResetReason, ResetUpdate, "reset-reason"},
		{ClaimRecordFlags, &c.RecordFlags, RecordFlagsAll, "record-flags"},
		{ClaimChainMaxSVN, &c.ChainMaxSVN, SVNLimit, "chain-max-svn"},
	} {
		if *f.out, err = u32(m[f.key], f.limit, f.name); err != nil {
			return nil, err
		}
	}
	if c.ResetReason < ResetCold {
		return nil, bad("reset-reason is not 1..3")
	}
	floors, ok := m[ClaimFloors].([]any)
	if !ok || len(floors) != 2 {
		return nil, bad("floors is not two integers")
	}
	if c.FloorROMExt, err = u32(floors[0], SVNLimit, "ROM_EXT floor"); err != nil {
		return nil, err
	}
	if c.FloorBL0, err = u32(floors[1], SVNLimit, "BL0 floor"); err != nil {
		return nil, err
	}
	gen, err := u32(m[ClaimGeneration], 0xffffffff, "generation")
	if err != nil {
		return nil, err
	}
	c.Generation = uint64(gen)
	if err := c.decodeMeasurements(m[ClaimMeasurements]); err != nil {
		return nil, err
	}
	if err := c.decodeAttempts(m[ClaimMeasRes], m[ClaimAttempts]); err != nil {
		return nil, err
	}
	// The registered claims summarise the private ones and must agree.
	okStages := map[uint32]bool{}
	for _, a := range c.Attempts {
		if a.Booted() {
			okStages[a.Stage] = true
		}
	}
	if c.OEMBoot != (okStages[StageROMExt] && okStages[StageBL0]) {
		return nil, bad("oemboot is %v, the attempts say otherwise", c.OEMBoot)
	}
	if c.DbgStat != DbgStat(c.Lifecycle) {
		return nil, bad("dbgstat %d is not the lifecycle's", c.DbgStat)
	}
	if err := c.decodeUpdate(m); err != nil {
		return nil, err
	}
	return c, nil
}

func pair(v any, maxA, maxB uint32, what string) (uint32, uint32, error) {
	l, ok := v.([]any)
	if !ok || len(l) != 2 {
		return 0, 0, bad("%s is not two integers", what)
	}
	a, err := u32(l[0], maxA, what)
	if err != nil {
		return 0, 0, err
	}
	b, err := u32(l[1], maxB, what)
	return a, b, err
}

// decodeUpdate reads claims 12..18 (after the attempts: the booted slot
// is the booted BL0 attempt's, committed means it is the primary).
func (c *Claims) decodeUpdate(m map[int64]any) error {
	u := &c.Update
	u.ResetReason = c.ResetReason
	var err error
	for _, f := range []struct {
		key   int64
		out   *uint32
		limit uint32
		name  string
	}{
		{ClaimUpdateState, &u.State, UpdateTrial, "update-state"},
		{ClaimPrimarySlot, &u.PrimarySlot, 1, "primary-slot"},
		{ClaimBootedSlot, &u.BootedSlot, 1, "booted-slot"},
		{ClaimTrialBoots, &u.TrialBoots, TrialMaxBoots, "trial-boots"},
	} {
		if *f.out, err = u32(m[f.key], f.limit, f.name); err != nil {
			return err
		}
	}
	if u.PendingStage, u.PendingSlot, err = pair(m[ClaimPendingUpdate], StageBL0, 1, "pending-update"); err != nil {
		return err
	}
	if u.PendingStage == 0 && u.PendingSlot != 0 {
		return bad("pending-update names a slot without a stage")
	}
	if u.RevocationSeq, u.RevocationSeqDevice, err = pair(m[ClaimRevocationSeq], RevocationSeqMax,
		RevocationSeqMax, "revocation-sequence"); err != nil {
		return err
	}
	if u.RevertReason, u.RevertedSlot, err = pair(m[ClaimRevert], RevertReasonMax, 1, "revert"); err != nil {
		return err
	}
	if u.RevertReason == 0 && u.RevertedSlot != 0 {
		return bad("revert names a slot without a reason")
	}
	for _, a := range c.Attempts {
		if a.Flags&StageFlagBooted != 0 {
			if a.Stage == StageBL0 && a.Slot != u.BootedSlot {
				return bad("booted-slot %d is not the slot of the BL0 attempt that booted (%d)", u.BootedSlot, a.Slot)
			}
			continue
		}
		u.RefusedCount++
		u.RefusedSlots |= 1 << ((a.Stage-1)*2 + a.Slot)
	}
	want := uint32(UpdateCommitted)
	if u.BootedSlot != u.PrimarySlot {
		want = UpdateTrial
	}
	if u.State != want {
		return bad("update-state %d disagrees with the booted and primary slots", u.State)
	}
	return nil
}

func (c *Claims) decodeMeasurements(v any) error {
	list, ok := v.([]any)
	if !ok || len(list) < 1 || len(list) > 1+RecordMaxStages {
		return bad("measurements is not 1..5 entries")
	}
	for i, e := range list {
		pair, ok := e.([]any)
		if !ok || len(pair) != 2 {
			return bad("measurement %d is not [content-format, bytes]", i)
		}
		if cf, ok := asUint32(pair[0]); !ok || cf != CFMeasuredComponent {
			return bad("measurement %d is not a measured component", i)
		}
		comp, err := decodeComponent(pair[1])
		if err != nil {
			return err
		}
		if i == 0 {
			if comp.Name != MCNameROM || comp.HasVersion || comp.Authorities != nil {
				return bad("the first measurement is not the ROM's")
			}
			c.ROMIdentity = comp.Digest
		} else if stage := stageByName(comp.Name); stage == 0 || !comp.HasVersion ||
			comp.Authorities == nil {
			return bad("measurement %d is not a stage's", i)
		}
		c.Components = append(c.Components, *comp)
	}
	return nil
}

func (c *Claims) decodeAttempts(measres, attempts any) error {
	results, ok1 := measres.([]any)
	maps, ok2 := attempts.([]any)
	if !ok1 || !ok2 || len(maps) > RecordMaxStages || len(results) > RecordMaxStages {
		return bad("attempts or measres has more than %d entries", RecordMaxStages)
	}
	if len(results) != len(maps) {
		return bad("measres has %d groups for %d attempts", len(results), len(maps))
	}
	booted := 0
	for i := range maps {
		var a Attempt
		r, ok := results[i].([]any)
		if !ok || len(r) != 2 {
			return bad("measres %d is not [system, results]", i)
		}
		system, ok := r[0].(string)
		if !ok || !strings.HasPrefix(system, MeasResSystemPrefix) {
			return bad("measres %d is not an otattest boot check", i)
		}
		if a.Path, ok = pathByName(strings.TrimPrefix(system, MeasResSystemPrefix)); !ok {
			return bad("measres %d names no path", i)
		}
		inner, ok := r[1].([]any)
		if !ok || len(inner) != 1 {
			return bad("measres %d has not one result", i)
		}
		one, ok := inner[0].([]any)
		if !ok || len(one) != 2 {
			return bad("measres %d's result is not [name, result]", i)
		}
		name, ok := one[0].(string)
		if !ok {
			return bad("measres %d names no stage", i)
		}
		var err error
		if a.Result, err = u32(one[1], MeasResNotRun, "measres result"); err != nil || a.Result == 0 {
			return bad("measres %d's result is not 1..3", i)
		}
		m, ok := intMap(maps[i])
		if !ok {
			return bad("attempt %d is not a map", i)
		}
		fields := []struct {
			key   int64
			out   *uint32
			limit uint32
			name  string
		}{
			{AttemptStage, &a.Stage, StageBL0, "stage"},
			{AttemptSlot, &a.Slot, 1, "slot"},
			{AttemptStatus, &a.Status, 0xffffffff, "status"},
			{AttemptSigScheme, &a.SigScheme, SigHybrid, "sig-scheme"},
			{AttemptTagKeyVersion, &a.TagKeyVersion, 0xffffffff, "tag-key-version"},
			{AttemptFlags, &a.Flags, StageFlagAll, "flags"},
			{AttemptPathReason, &a.PathReason, ReasonMax, "path-reason"},
			{AttemptUsageFlags, &a.UsageFlags, CapAll, "usage-flags"},
		}
		for _, f := range fields {
			if *f.out, err = u32(m[f.key], f.limit, "attempt "+f.name); err != nil {
				return err
			}
		}
		if a.Stage == 0 || StageName(a.Stage) != name {
			return bad("attempt %d's stage is not the one measres names", i)
		}
		t, ok := m[AttemptVerifyTimeNs].(uint64)
		if !ok {
			return bad("attempt %d's verify time is not an unsigned integer", i)
		}
		a.VerifyTimeNs = t
		wantResult := uint32(MeasResSuccess)
		if a.Status != StatusOK {
			wantResult = MeasResFail
			if a.Path == PathNone {
				wantResult = MeasResNotRun
			}
		}
		if a.Result != wantResult {
			return bad("attempt %d's measres result is not its status's", i)
		}
		if why := attemptInconsistency(&a, c.RecordFlags); why != "" {
			return bad("attempt %d: %s", i, why)
		}
		raw, has := m[AttemptComponent]
		keys := len(fields) + 1
		if a.Flags&StageFlagBooted != 0 {
			// The k-th booted attempt is measurements[1 + k].
			if has {
				return bad("booted attempt %d carries its own component", i)
			}
			if 1+booted >= len(c.Components) || c.Components[1+booted].Name != name {
				return bad("measurements do not list attempt %d, which booted", i)
			}
			a.Component = &c.Components[1+booted]
			booted++
		} else {
			if !has {
				return bad("refused attempt %d has no component", i)
			}
			keys++
			if a.Component, err = decodeComponent(raw); err != nil {
				return err
			}
			if a.Component.Name != name {
				return bad("attempt %d's component is another stage's", i)
			}
		}
		if len(m) != keys {
			return bad("attempt %d has keys this profile does not define", i)
		}
		c.Attempts = append(c.Attempts, a)
	}
	if booted != len(c.Components)-1 {
		return bad("measurements list %d stages, %d attempts booted", len(c.Components)-1, booted)
	}
	return nil
}
