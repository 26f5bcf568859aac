-- CreateTable
CREATE TABLE "Annotation" (
    "id" UUID NOT NULL,
    "serviceId" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "kind" VARCHAR(20) NOT NULL,
    "text" VARCHAR(500) NOT NULL,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "url" VARCHAR(2000),
    "authorKind" VARCHAR(20) NOT NULL,
    "authorId" VARCHAR(64),
    "authorName" VARCHAR(254) NOT NULL,
    "dedupeKey" VARCHAR(200),

    CONSTRAINT "Annotation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Annotation_dedupeKey_key" ON "Annotation"("dedupeKey");

-- CreateIndex
CREATE INDEX "Annotation_serviceId_at_idx" ON "Annotation"("serviceId", "at");

-- AddForeignKey
ALTER TABLE "Annotation" ADD CONSTRAINT "Annotation_serviceId_fkey" FOREIGN KEY ("serviceId") REFERENCES "Service"("id") ON DELETE CASCADE ON UPDATE CASCADE;
