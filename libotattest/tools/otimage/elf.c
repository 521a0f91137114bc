// SPDX-License-Identifier: MIT
/*
 * Stage executables as payloads (otimage.h, oti_payload_elf): the code
 * segment of an ELF32 RISC-V executable, read with libelf, and where it
 * runs (docs/formats.md, LOAD).
 */
#include <gelf.h>
#include <libelf.h>
#include <string.h>

#include "otimage.h"

static ota_status_t bad(struct oti_diag *d, const char *why)
{
	return oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--payload", "%s", why);
}

ota_status_t oti_payload_elf(const uint8_t *file, size_t len, struct oti_image_params *p,
			     bool *is_elf, struct oti_diag *d)
{
	GElf_Phdr code = { 0 };
	GElf_Ehdr eh;
	ota_status_t st = OTA_OK;
	size_t n = 0, i, found = 0;
	Elf *elf;

	*is_elf = len >= SELFMAG && memcmp(file, ELFMAG, SELFMAG) == 0;
	if (!*is_elf)
		return OTA_OK;
	if (elf_version(EV_CURRENT) == EV_NONE ||
	    !(elf = elf_memory((char *)(uintptr_t)file, len)))
		return bad(d, "an ELF file libelf cannot read");
	if (gelf_getclass(elf) != ELFCLASS32 || !gelf_getehdr(elf, &eh) ||
	    eh.e_machine != EM_RISCV || eh.e_type != ET_EXEC || elf_getphdrnum(elf, &n) != 0) {
		st = bad(d, "not an ELF32 RISC-V executable");
		goto out;
	}
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph)) {
			st = bad(d, "a program header libelf cannot read");
			goto out;
		}
		if (ph.p_type == PT_LOAD && ph.p_filesz) {
			code = ph;
			found++;
		}
	}
	if (found != 1 || code.p_filesz != code.p_memsz || code.p_offset > len ||
	    code.p_filesz > len - code.p_offset || code.p_vaddr > UINT32_MAX ||
	    eh.e_entry < code.p_vaddr || eh.e_entry - code.p_vaddr >= code.p_filesz) {
		st = bad(d, "a stage executable has one segment with bytes (its code), "
			    "the entry point inside it");
		goto out;
	}
	p->payload = file + code.p_offset;
	p->payload_len = code.p_filesz;
	p->has_load = true;
	memset(&p->load, 0, sizeof(p->load));
	p->load.load_address = (uint32_t)code.p_vaddr;
	p->load.entry = (uint32_t)eh.e_entry;
out:
	elf_end(elf);
	return st;
}
