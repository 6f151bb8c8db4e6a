/** A small seeded PRNG (mulberry32): the same seed gives the same sequence. Uniform in [0, 1). */
export declare function mulberry32(seed: number): () => number;
