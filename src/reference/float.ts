// The float tensor type of the CPU twins (ops.ts, matmul-twin.ts, ops-train.ts, ops-sample.ts).

/** A float tensor: Float32 mirrors the GPU, Float64 is for gradient checks. */
export type F = Float32Array | Float64Array;
