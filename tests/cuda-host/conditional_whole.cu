// conditional_whole.cu: conditional_graphs.cu built as a whole program
// (no -rdc=true), as nvcc builds it by default: ptxas resolves the kernels'
// cudaGraphSetConditional without separate compilation, so the module must
// load as it is, and its conditional nodes run the same.
#include "conditional_graphs.cu"
