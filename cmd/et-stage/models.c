/* Model presets: the public shapes of well-known models (their papers and
 * model cards). Sequence lengths are the context each was released with. */
#include "et-stage/stage.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const stage_model models[] = {
    /* name          arch        L    D      F      H    KV   V       S     E  K */
    {"gpt3-175b", ARCH_GPT, 96, 12288, 49152, 96, 96, 50257, 2048, 0, 0},
    {"llama2-7b", ARCH_LLAMA, 32, 4096, 11008, 32, 32, 32000, 4096, 0, 0},
    {"llama2-13b", ARCH_LLAMA, 40, 5120, 13824, 40, 40, 32000, 4096, 0, 0},
    {"llama2-70b", ARCH_LLAMA, 80, 8192, 28672, 64, 8, 32000, 4096, 0, 0},
    {"llama3-8b", ARCH_LLAMA, 32, 4096, 14336, 32, 8, 128256, 8192, 0, 0},
    {"llama3-70b", ARCH_LLAMA, 80, 8192, 28672, 64, 8, 128256, 8192, 0, 0},
    {"llama3-405b", ARCH_LLAMA, 126, 16384, 53248, 128, 8, 128256, 8192, 0, 0},
    {"mixtral-8x7b", ARCH_MOE, 32, 4096, 14336, 32, 8, 32000, 32768, 8, 2},
};

const stage_model *stage_model_find(const char *name)
{
	for (size_t i = 0; i < sizeof models / sizeof *models; i++)
		if (strcmp(models[i].name, name) == 0)
			return &models[i];
	return NULL;
}

void stage_models_print(void)
{
	static const char *const arch[] = {"gpt", "llama", "moe"};
	printf("%-13s %-5s %4s %6s %6s %5s %4s %7s %5s %7s %5s\n", "model", "graph", "L", "D", "F",
	       "H", "KV", "V", "S", "experts", "top-k");
	for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
		const stage_model *m = &models[i];
		printf("%-13s %-5s %4" PRIu64 " %6" PRIu64 " %6" PRIu64 " %5" PRIu64 " %4" PRIu64
		       " %7" PRIu64 " %5" PRIu64 " %7" PRIu64 " %5" PRIu64 "\n",
		       m->name, arch[m->arch], m->L, m->D, m->F, m->H, m->KV, m->V, m->S, m->E,
		       m->K);
	}
}
