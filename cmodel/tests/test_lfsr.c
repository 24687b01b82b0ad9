/*
 * test_lfsr.c - the switch LFSR of spec 5 against polynomial arithmetic done here.
 *
 * With bit i of the state = the coefficient of x^i, the right-shifting Galois step is
 * s -> s * x^-1 mod P(x), P = x^32 + x^22 + x^2 + x + 1. The test knows only P: it computes
 * x^-1 = x^(2^32 - 2) mod P by square-and-multiply (valid because P is primitive, also checked here:
 * x^(2^32-1) = 1 and x^((2^32-1)/q) != 1 for every prime q | 2^32-1 = 3*5*17*257*65537), then
 * s_n = s_0 * (x^-1)^n mod P, and compares with the model's step.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "lfsr.h"

static check_ctx C = {"test_lfsr", 0, 0};

#define POLY_LOW 0x00400007u /* P(x) - x^32 = x^22 + x^2 + x + 1 */

/* a * b mod P, bit by bit (shift-and-add, reducing x^32 as it appears). */
static uint32_t mulmod(uint32_t a, uint32_t b)
{
    uint32_t r = 0;
    int i;
    for (i = 31; i >= 0; i--) {
        uint32_t carry = r >> 31;
        r <<= 1;
        if (carry)
            r ^= POLY_LOW;
        if ((b >> i) & 1u)
            r ^= a;
    }
    return r;
}

static uint32_t powmod(uint32_t a, uint64_t e)
{
    uint32_t r = 1;
    while (e) {
        if (e & 1u)
            r = mulmod(r, a);
        a = mulmod(a, a);
        e >>= 1;
    }
    return r;
}

int main(void)
{
    const uint64_t order = 0xFFFFFFFFull;
    const uint64_t primes[] = {3, 5, 17, 257, 65537};
    uint32_t x = 2, xinv, s0, s, seeds[] = {1u, 0xDEADBEEFu, 0x80000000u, 0x12345678u};
    size_t i, k;
    long n;

    check(&C, mulmod(0x80000000u, x) == POLY_LOW, "x^31 * x = x^22 + x^2 + x + 1");
    check(&C, powmod(x, order) == 1u, "x^(2^32-1) = 1");
    for (i = 0; i < 5; i++)
        check(&C, powmod(x, order / primes[i]) != 1u, "x^((2^32-1)/%llu) != 1 (primitive)",
              (unsigned long long)primes[i]);
    xinv = powmod(x, order - 1);
    check(&C, mulmod(xinv, x) == 1u, "x * x^-1 = 1");

    for (k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
        s0 = seeds[k];
        s = s0;
        for (n = 1; n <= 64; n++) {
            s = lcan_lfsr_step(s);
            check(&C, s == mulmod(s0, powmod(xinv, (uint64_t)n)), "seed %08x step %ld: %08x", s0, n, s);
        }
    }
    /* 10^6 steps: never 0, never back to the start (the step is a bijection, so the first repeat
     * of any value would be the start), and the 10^6-th value matches the algebra */
    s0 = 0xC0FFEE01u;
    s = s0;
    {
        long zeros = 0, back = 0;
        for (n = 1; n <= 1000000; n++) {
            s = lcan_lfsr_step(s);
            zeros += s == 0;
            back += s == s0;
        }
        check(&C, zeros == 0, "state 0 reached %ld times", zeros);
        check(&C, back == 0, "state repeated within 10^6 steps (%ld)", back);
        check(&C, s == mulmod(s0, powmod(xinv, 1000000u)), "10^6-th value %08x", s);
    }
    /* spec 5: salt and seeding */
    check(&C, lcan_lfsr_salt(0, 0) == 0x6A09E667u, "salt(0,0)");
    check(&C, lcan_lfsr_salt(1, 0) == (uint32_t)(0x9E3779B9ull + 0x6A09E667ull), "salt(1,0)");
    check(&C, lcan_lfsr_salt(3, 5) == (uint32_t)(3ull * 0x9E3779B9ull + 5ull * 0x85EBCA6Bull + 0x6A09E667ull),
          "salt(3,5)");
    check(&C, lcan_lfsr_salt(16, 4194303u) ==
                  (uint32_t)(16ull * 0x9E3779B9ull + 4194303ull * 0x85EBCA6Bull + 0x6A09E667ull),
          "salt(16,2^22-1) wraps mod 2^32");
    check(&C, lcan_lfsr_seed(0x6A09E667u, 0, 0) == 1u, "seed ^ salt == 0 loads 1");
    check(&C, lcan_lfsr_seed(0u, 2, 7) == lcan_lfsr_salt(2, 7), "seed 0 loads the salt");
    /* offsets: red(field & (2^clog2(n)-1), n) */
    check(&C, lcan_lfsr_offset(0xFFu, 7u, 6) == 1, "red(7,6) = 1");
    check(&C, lcan_lfsr_offset(0x05u, 7u, 6) == 5, "red(5,6) = 5");
    check(&C, lcan_lfsr_offset(0x06u, 7u, 6) == 0, "red(6,6) = 0");
    check(&C, lcan_lfsr_offset(0xABu, 0u, 1) == 0, "n = 1 gives 0");
    check(&C, lcan_lfsr_offset(0xABu, 0u, 0) == 0, "n = 0 gives 0");
    check(&C, lcan_lfsr_offset(0x83u, 127u, 128) == 3, "n = 128 keeps 7 bits");
    return check_done(&C);
}
