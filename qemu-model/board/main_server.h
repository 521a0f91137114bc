/* SPDX-License-Identifier: MIT */
/* 'otattest-model server': the ivshmem server of a split model. */
#ifndef MODEL_MAIN_SERVER_H
#define MODEL_MAIN_SERVER_H

int server_main(int argc, char **argv);

#endif /* MODEL_MAIN_SERVER_H */
