-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Service" (
    "id" UUID NOT NULL,
    "slug" VARCHAR(64) NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "description" VARCHAR(2000) NOT NULL DEFAULT '',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" VARCHAR(120) NOT NULL,

    CONSTRAINT "Service_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Budget" (
    "serviceId" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "indicator" VARCHAR(60) NOT NULL,
    "targetMs" DOUBLE PRECISION NOT NULL,
    "quantile" DOUBLE PRECISION NOT NULL,
    "stages" JSONB NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedBy" VARCHAR(120) NOT NULL,

    CONSTRAINT "Budget_pkey" PRIMARY KEY ("serviceId")
);

-- CreateTable
CREATE TABLE "BudgetRevision" (
    "id" UUID NOT NULL,
    "serviceId" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "author" VARCHAR(120) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "message" VARCHAR(500) NOT NULL DEFAULT '',
    "restoredFrom" INTEGER,
    "snapshot" JSONB NOT NULL,
    "changes" JSONB NOT NULL,

    CONSTRAINT "BudgetRevision_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Service_slug_key" ON "Service"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "BudgetRevision_serviceId_version_key" ON "BudgetRevision"("serviceId", "version");

-- AddForeignKey
ALTER TABLE "Budget" ADD CONSTRAINT "Budget_serviceId_fkey" FOREIGN KEY ("serviceId") REFERENCES "Service"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BudgetRevision" ADD CONSTRAINT "BudgetRevision_serviceId_fkey" FOREIGN KEY ("serviceId") REFERENCES "Budget"("serviceId") ON DELETE CASCADE ON UPDATE CASCADE;
