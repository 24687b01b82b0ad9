/* json.c - JSON value printers (see json.h). */
#include "json.h"

#include <math.h>
#include <stdlib.h>

void lcan_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s != '\0'; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

void lcan_json_double(FILE *f, double x)
{
    char buf[40];
    int prec;
    if (!isfinite(x)) {
        fputs("null", f);
        return;
    }
    for (prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    fputs(buf, f);
}

void lcan_json_i64(FILE *f, int64_t x)
{
    if (x < 0)
        fputs("null", f);
    else
        fprintf(f, "%lld", (long long)x);
}

void lcan_json_ints(FILE *f, const int *v, int n)
{
    int k;
    fputc('[', f);
    for (k = 0; k < n; k++)
        fprintf(f, "%s%d", k ? ", " : "", v[k]);
    fputc(']', f);
}
