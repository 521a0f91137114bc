/* SPDX-License-Identifier: MIT */
/* 'otattest-model ctl': send one control request and print the reply. */
#ifndef MODEL_CTL_H
#define MODEL_CTL_H

int ctl_main(int argc, char **argv);

#endif /* MODEL_CTL_H */
