//go:build amd64 && !purego

#include "textflag.h"

// HSUM adds the lanes of acc in order, ((l0 + l1) + l2) + l3, into lane 0
// of acc (tmp is clobbered) and stores it to out.
#define HSUM(acc, tmp, out) \
	MOVAPS acc, tmp; SHUFPS $0x55, tmp, tmp; ADDSS tmp, acc; \
	MOVAPS acc, tmp; SHUFPS $0xAA, tmp, tmp; ADDSS tmp, acc; \
	MOVAPS acc, tmp; SHUFPS $0xFF, tmp, tmp; ADDSS tmp, acc; \
	MOVSS  acc, out

// func dot4SSE(a0, a1, a2, a3, b *float32, n int) (r0, r1, r2, r3 float32)
//
// X0 … X3 hold the four products' partial sums: lane j sums the terms of
// the indices ≡ j (mod 4) in order, as Dot's s0 … s3 do; the lanes are
// then added in order: ((s0 + s1) + s2) + s3. MULPS and ADDPS round each
// lane as MULSS and ADDSS do (no fused multiply-add).
TEXT ·dot4SSE(SB), NOSPLIT, $0-64
	MOVQ a0+0(FP), AX
	MOVQ a1+8(FP), BX
	MOVQ a2+16(FP), CX
	MOVQ a3+24(FP), DX
	MOVQ b+32(FP), SI
	MOVQ n+40(FP), DI
	SHLQ $2, DI
	XORQ R8, R8
	XORPS X0, X0
	XORPS X1, X1
	XORPS X2, X2
	XORPS X3, X3

loop:
	CMPQ R8, DI
	JGE  sum
	MOVUPS (SI)(R8*1), X4
	MOVUPS (AX)(R8*1), X5
	MULPS  X4, X5
	ADDPS  X5, X0
	MOVUPS (BX)(R8*1), X6
	MULPS  X4, X6
	ADDPS  X6, X1
	MOVUPS (CX)(R8*1), X7
	MULPS  X4, X7
	ADDPS  X7, X2
	MOVUPS (DX)(R8*1), X8
	MULPS  X4, X8
	ADDPS  X8, X3
	ADDQ   $16, R8
	JMP    loop

sum:
	HSUM(X0, X9, r0+48(FP))
	HSUM(X1, X9, r1+52(FP))
	HSUM(X2, X9, r2+56(FP))
	HSUM(X3, X9, r3+60(FP))
	RET
